//! TLS of `ekl mcp --url https://…`: rustls (the `ring` provider) with webpki's verification,
//! plus one case curl's `--cacert` accepts and webpki alone does not, and a worded message for
//! every certificate refusal (docs/decisions/cli.md#mcp-ca).
//!
//! - Without `--ca`, the web PKI's roots (webpki-roots) anchor the chain.
//! - With `--ca FILE`, the certificates of FILE do (a private CA, or the server's own
//!   certificate). A certificate made by `openssl req -x509` (self-signed, `CA:TRUE`, the
//!   usual test certificate) is refused by webpki as an end-entity (`CaUsedAsEndEntity`); it is
//!   trusted here when it is byte for byte one of the certificates of FILE, after webpki checked
//!   its validity period, and when it names the host (the name check is webpki's too). A CA
//!   certificate that is not itself in FILE stays refused.
//! - Each refusal names its check in words with the host: an unknown issuer, a name mismatch,
//!   expired (or not yet valid), a CA certificate used as the server's certificate; without
//!   `--ca`, the hint to give the server's certificate or CA with `--ca`.
//!
//! ureq 3 builds its own rustls configuration (no verifier hook), so this module is a connector
//! of ureq's connector chain (TCP, then this TLS), the shape of ureq's own rustls connector.

use std::io::{self, Read, Write};
use std::path::{Path, PathBuf};
use std::sync::Arc;

use rustls::client::danger::{HandshakeSignatureValid, ServerCertVerified, ServerCertVerifier};
use rustls::client::WebPkiServerVerifier;
use rustls::pki_types::{CertificateDer, ServerName, UnixTime};
use rustls::{CertificateError, ClientConfig, ClientConnection, RootCertStore, StreamOwned};
use ureq::unversioned::transport::{
    Buffers, ConnectionDetails, Connector, Either, LazyBuffers, NextTimeout, TcpConnector,
    Transport, TransportAdapter,
};

/// The verifier: webpki's, and the exact certificates of `--ca` as end-entities.
#[derive(Debug)]
struct Verifier {
    inner: Arc<WebPkiServerVerifier>,
    /// The certificates of `--ca` (DER), trusted as the server's own certificate when one of
    /// them is exactly the one presented.
    pinned: Vec<CertificateDer<'static>>,
    /// A fixed verification time (tests of the validity check); `None`: the clock.
    now: Option<UnixTime>,
}

/// Whether `e` is webpki's `CaUsedAsEndEntity` (rustls carries it as an `Other` error).
fn ca_as_end_entity(e: &rustls::Error) -> bool {
    match e {
        rustls::Error::InvalidCertificate(CertificateError::Other(other)) => {
            matches!(
                other.0.downcast_ref::<webpki::Error>(),
                Some(webpki::Error::CaUsedAsEndEntity)
            )
        }
        _ => false,
    }
}

impl ServerCertVerifier for Verifier {
    fn verify_server_cert(
        &self,
        end_entity: &CertificateDer<'_>,
        intermediates: &[CertificateDer<'_>],
        server_name: &ServerName<'_>,
        ocsp_response: &[u8],
        now: UnixTime,
    ) -> Result<ServerCertVerified, rustls::Error> {
        let now = self.now.unwrap_or(now);
        match self.inner.verify_server_cert(
            end_entity,
            intermediates,
            server_name,
            ocsp_response,
            now,
        ) {
            // webpki checks the validity period before the basic constraints: a
            // `CaUsedAsEndEntity` is only reached by a certificate within its period (the test
            // `an_expired_pinned_certificate_is_refused_as_expired` pins that order).
            Err(e) if ca_as_end_entity(&e) && self.pinned.iter().any(|c| c == end_entity) => {
                let parsed = rustls::server::ParsedCertificate::try_from(end_entity)?;
                rustls::client::verify_server_name(&parsed, server_name)?;
                Ok(ServerCertVerified::assertion())
            }
            other => other,
        }
    }

    fn verify_tls12_signature(
        &self,
        message: &[u8],
        cert: &CertificateDer<'_>,
        dss: &rustls::DigitallySignedStruct,
    ) -> Result<HandshakeSignatureValid, rustls::Error> {
        self.inner.verify_tls12_signature(message, cert, dss)
    }

    fn verify_tls13_signature(
        &self,
        message: &[u8],
        cert: &CertificateDer<'_>,
        dss: &rustls::DigitallySignedStruct,
    ) -> Result<HandshakeSignatureValid, rustls::Error> {
        self.inner.verify_tls13_signature(message, cert, dss)
    }

    fn supported_verify_schemes(&self) -> Vec<rustls::SignatureScheme> {
        self.inner.supported_verify_schemes()
    }
}

/// The TLS connector of the chain: wraps the TCP transport of an `https://` URL.
#[derive(Debug)]
pub(super) struct TlsConnector {
    config: Arc<ClientConfig>,
    /// The `--ca` file, for the messages.
    ca: Option<PathBuf>,
}

impl TlsConnector {
    /// The connector; `ca`: the `--ca` file and its certificates (DER), or `None` for the web
    /// PKI's roots; `now`: a fixed verification time (tests only).
    pub(super) fn new(
        ca: Option<(&Path, Vec<CertificateDer<'static>>)>,
        now: Option<UnixTime>,
    ) -> Result<TlsConnector, String> {
        // The `ring` provider, as ureq's own rustls connector uses (deprecated in rustls 0.23.48
        // for lacking post-quantum key exchange; aws-lc-rs needs cmake and a longer build).
        #[allow(deprecated)]
        let provider = Arc::new(rustls::crypto::ring::default_provider());
        let mut roots = RootCertStore::empty();
        let (pinned, path) = match ca {
            None => {
                roots.extend(webpki_roots::TLS_SERVER_ROOTS.iter().cloned());
                (Vec::new(), None)
            }
            Some((path, certs)) => {
                for c in &certs {
                    roots.add(c.clone()).map_err(|e| {
                        format!(
                            "--ca: {}: a certificate is not usable ({e})",
                            path.display()
                        )
                    })?;
                }
                (certs, Some(path.to_owned()))
            }
        };
        let inner = WebPkiServerVerifier::builder_with_provider(Arc::new(roots), provider.clone())
            .build()
            .map_err(|e| format!("--ca: the certificates cannot anchor a chain ({e})"))?;
        let verifier = Verifier { inner, pinned, now };
        let config = ClientConfig::builder_with_provider(provider)
            .with_safe_default_protocol_versions()
            .map_err(|e| format!("TLS: {e}"))?
            .dangerous()
            .with_custom_certificate_verifier(Arc::new(verifier))
            .with_no_client_auth();
        Ok(TlsConnector {
            config: Arc::new(config),
            ca: path,
        })
    }

    /// The one-line message (under 200 characters for a host of up to 40) of a refused
    /// handshake with `host`: the check in words, and the remedy.
    fn refusal(&self, host: &str, e: &rustls::Error) -> String {
        let cert = format!("the server's certificate for {host}");
        let given = self.ca.is_some();
        let what = match e {
            _ if ca_as_end_entity(e) && given => format!(
                "{cert} is a CA certificate (CA:TRUE) used as a server certificate, and not the \
                 one --ca gives: give that one, or serve a CA:FALSE one"
            ),
            _ if ca_as_end_entity(e) => format!(
                "{cert} is a CA certificate (CA:TRUE) used as a server certificate: give that \
                 very certificate with --ca FILE.pem to trust it"
            ),
            rustls::Error::InvalidCertificate(c) => match c {
                CertificateError::UnknownIssuer if given => {
                    format!("{cert} has an unknown issuer: no certificate of --ca signed it")
                }
                CertificateError::UnknownIssuer => format!(
                    "{cert} has an unknown issuer (no web PKI root): for a private server, give \
                     its certificate or CA with --ca FILE.pem"
                ),
                CertificateError::BadSignature => format!(
                    "{cert} has a bad signature: the trusted certificate of its issuer's name did \
                     not sign it"
                ),
                CertificateError::NotValidForName
                | CertificateError::NotValidForNameContext { .. } => format!(
                    "{cert} does not name {host} (a name mismatch): use a host name its \
                     subjectAltName lists"
                ),
                CertificateError::Expired | CertificateError::ExpiredContext { .. } => {
                    format!("{cert} has expired (its notAfter is past): renew it")
                }
                CertificateError::NotValidYet | CertificateError::NotValidYetContext { .. } => {
                    format!("{cert} is not valid yet (its notBefore is ahead)")
                }
                other if given => format!("{cert} was refused: {other:?}"),
                other => format!("{cert} was refused: {other:?} (a private server: --ca FILE.pem)"),
            },
            other => format!("the TLS handshake with {host} failed: {other}"),
        };
        super::printable(&what)
    }
}

impl<In: Transport> Connector<In> for TlsConnector {
    type Out = Either<In, TlsTransport>;

    fn connect(
        &self,
        details: &ConnectionDetails,
        chained: Option<In>,
    ) -> Result<Option<Self::Out>, ureq::Error> {
        let Some(transport) = chained else {
            return Err(ureq::Error::ConnectionFailed);
        };
        if !details.needs_tls() || transport.is_tls() {
            return Ok(Some(Either::A(transport)));
        }
        let host = details
            .uri
            .host()
            .unwrap_or("")
            .trim_start_matches('[')
            .trim_end_matches(']')
            .to_owned();
        let name = ServerName::try_from(host.clone())
            .map_err(|_| io::Error::other(format!("{host} is not a TLS server name")))?;
        let mut conn = ClientConnection::new(self.config.clone(), name)?;
        let mut sock = TransportAdapter::new(transport.boxed(), details.current_time.clone());
        sock.set_timeout(details.timeout);
        if let Err(e) = conn.complete_io(&mut sock) {
            let refused = e
                .get_ref()
                .and_then(|i| i.downcast_ref::<rustls::Error>())
                .map(|r| self.refusal(&host, r));
            return Err(match refused {
                Some(m) => ureq::Error::Io(io::Error::other(m)),
                None => ureq::Error::Io(e),
            });
        }
        let buffers = LazyBuffers::new(
            details.config.input_buffer_size(),
            details.config.output_buffer_size(),
        );
        Ok(Some(Either::B(TlsTransport {
            buffers,
            stream: StreamOwned { conn, sock },
        })))
    }
}

/// A TLS session over the chained transport.
pub(super) struct TlsTransport {
    buffers: LazyBuffers,
    stream: StreamOwned<ClientConnection, TransportAdapter>,
}

impl std::fmt::Debug for TlsTransport {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("TlsTransport").finish_non_exhaustive()
    }
}

impl Transport for TlsTransport {
    fn buffers(&mut self) -> &mut dyn Buffers {
        &mut self.buffers
    }

    fn transmit_output(&mut self, amount: usize, timeout: NextTimeout) -> Result<(), ureq::Error> {
        self.stream.get_mut().set_timeout(timeout);
        let output = &self.buffers.output()[..amount];
        self.stream.write_all(output)?;
        Ok(())
    }

    fn await_input(&mut self, timeout: NextTimeout) -> Result<bool, ureq::Error> {
        self.stream.get_mut().set_timeout(timeout);
        let input = self.buffers.input_append_buf();
        let amount = self.stream.read(input)?;
        self.buffers.input_appended(amount);
        Ok(amount > 0)
    }

    fn is_open(&mut self) -> bool {
        self.stream.get_mut().get_mut().is_open()
    }

    fn is_tls(&self) -> bool {
        true
    }
}

/// The HTTP agent of `config` whose connections go through TCP, then `tls` for `https://`.
pub(super) fn agent(config: ureq::config::Config, tls: TlsConnector) -> ureq::Agent {
    let connector = ().chain(TcpConnector::default()).chain(tls);
    ureq::Agent::with_parts(
        config,
        connector,
        ureq::unversioned::resolver::DefaultResolver::default(),
    )
}

#[cfg(test)]
mod tests {
    //! Certificates made by the openssl command line as users make them (`openssl req -x509`
    //! marks a self-signed certificate `CA:TRUE`), a rustls server on 127.0.0.1 port 0, and the
    //! client of `ekl mcp --url` (this connector) against it.
    use super::*;
    use std::process::Command;

    fn openssl(dir: &Path, args: &[&str]) {
        let out = Command::new("openssl")
            .args(args)
            .current_dir(dir)
            .output()
            .expect("the openssl command line (tests make their certificates with it)");
        assert!(
            out.status.success(),
            "openssl {args:?}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
    }

    /// `openssl req -x509` as the usual recipe: a self-signed P-256 certificate (CA:TRUE).
    fn self_signed(dir: &Path, name: &str, san: &str) {
        self_signed_as(dir, name, name, san);
    }

    /// [`self_signed`] with the subject's CN `cn`.
    fn self_signed_as(dir: &Path, name: &str, cn: &str, san: &str) {
        openssl(
            dir,
            &[
                "req",
                "-x509",
                "-newkey",
                "ec",
                "-pkeyopt",
                "ec_paramgen_curve:P-256",
                "-nodes",
                "-days",
                "30",
                "-subj",
                &format!("/CN={cn}"),
                "-keyout",
                &format!("{name}.key"),
                "-out",
                &format!("{name}.pem"),
                "-addext",
                &format!("subjectAltName={san}"),
            ],
        );
    }

    /// A server certificate signed by the CA `ca` (made by [`self_signed`]), with `constraints`.
    fn signed_by(dir: &Path, ca: &str, name: &str, constraints: &str) {
        openssl(
            dir,
            &[
                "req",
                "-new",
                "-newkey",
                "ec",
                "-pkeyopt",
                "ec_paramgen_curve:P-256",
                "-nodes",
                "-subj",
                "/CN=server",
                "-keyout",
                &format!("{name}.key"),
                "-out",
                &format!("{name}.csr"),
            ],
        );
        std::fs::write(
            dir.join(format!("{name}.ext")),
            format!("basicConstraints={constraints}\nsubjectAltName=DNS:localhost,IP:127.0.0.1\n"),
        )
        .expect("ext");
        openssl(
            dir,
            &[
                "x509",
                "-req",
                "-in",
                &format!("{name}.csr"),
                "-CA",
                &format!("{ca}.pem"),
                "-CAkey",
                &format!("{ca}.key"),
                "-set_serial",
                "2",
                "-days",
                "30",
                "-out",
                &format!("{name}.pem"),
                "-extfile",
                &format!("{name}.ext"),
            ],
        );
    }

    fn pem_items(path: &Path) -> Vec<ureq::tls::PemItem<'static>> {
        let pem = std::fs::read(path).expect("pem");
        ureq::tls::parse_pem(&pem)
            .map(|i| i.expect("pem item"))
            .map(|i| match i {
                ureq::tls::PemItem::Certificate(c) => ureq::tls::PemItem::Certificate(c.to_owned()),
                ureq::tls::PemItem::PrivateKey(k) => ureq::tls::PemItem::PrivateKey(k.to_owned()),
                _ => panic!("an unexpected PEM item"),
            })
            .collect()
    }

    fn certs(path: &Path) -> Vec<CertificateDer<'static>> {
        pem_items(path)
            .into_iter()
            .filter_map(|i| match i {
                ureq::tls::PemItem::Certificate(c) => Some(CertificateDer::from(c.der().to_vec())),
                _ => None,
            })
            .collect()
    }

    /// A TLS server on 127.0.0.1 (port 0) with the certificate and key `name`, for one
    /// connection: the handshake, then `HTTP/1.1 200` to a request.
    fn serve(dir: &Path, name: &str) -> (u16, std::thread::JoinHandle<()>) {
        let chain = certs(&dir.join(format!("{name}.pem")));
        let key = pem_items(&dir.join(format!("{name}.key")))
            .into_iter()
            .find_map(|i| match i {
                ureq::tls::PemItem::PrivateKey(k) => Some(k.der().to_vec()),
                _ => None,
            })
            .expect("key");
        let key = rustls::pki_types::PrivateKeyDer::try_from(key).expect("key der");
        #[allow(deprecated)]
        let provider = Arc::new(rustls::crypto::ring::default_provider());
        let config = rustls::ServerConfig::builder_with_provider(provider)
            .with_safe_default_protocol_versions()
            .expect("versions")
            .with_no_client_auth()
            .with_single_cert(chain, key)
            .expect("server config");
        let config = Arc::new(config);
        let listener = std::net::TcpListener::bind("127.0.0.1:0").expect("bind");
        let port = listener.local_addr().expect("addr").port();
        let handle = std::thread::spawn(move || {
            let (tcp, _) = listener.accept().expect("accept");
            let conn = rustls::ServerConnection::new(config).expect("server");
            let mut tls = StreamOwned::new(conn, tcp);
            let mut head = Vec::new();
            let mut byte = [0u8; 1];
            while !head.ends_with(b"\r\n\r\n") {
                match tls.read(&mut byte) {
                    Ok(1) => head.push(byte[0]),
                    _ => return, // the client refused the handshake
                }
            }
            let _ = tls.write_all(b"HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok");
            let _ = tls.flush();
        });
        (port, handle)
    }

    /// A GET of `https://HOST:PORT/` through the connector: `Ok` or the error's text.
    fn get(
        dir: &Path,
        server: &str,
        host: &str,
        ca: Option<&str>,
        now: Option<UnixTime>,
    ) -> Result<(), String> {
        let (port, handle) = serve(dir, server);
        let ca_path = ca.map(|c| dir.join(format!("{c}.pem")));
        let tls =
            TlsConnector::new(ca_path.as_deref().map(|p| (p, certs(p))), now).expect("connector");
        let config = ureq::Agent::config_builder()
            .proxy(None)
            .timeout_global(Some(std::time::Duration::from_secs(20)))
            .build();
        let result = agent(config, tls)
            .get(&format!("https://{host}:{port}/"))
            .call()
            .map(|_| ())
            .map_err(|e| e.to_string());
        handle.join().expect("server");
        result
    }

    fn temp(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("ekl-tls-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).expect("dir");
        dir
    }

    #[test]
    fn a_self_signed_ca_true_certificate_given_with_ca_is_trusted() {
        let dir = temp("pinned");
        self_signed(&dir, "self", "DNS:localhost,IP:127.0.0.1");
        // webpki alone refuses it (the issue's `CaUsedAsEndEntity`); given with --ca, trusted.
        assert_eq!(get(&dir, "self", "127.0.0.1", Some("self"), None), Ok(()));
        assert_eq!(get(&dir, "self", "localhost", Some("self"), None), Ok(()));
        // Without --ca: webpki's first refusal is the CA:TRUE end-entity; the remedy named.
        let e = get(&dir, "self", "127.0.0.1", None, None).expect_err("no --ca");
        assert_eq!(
            e,
            "io: the server's certificate for 127.0.0.1 is a CA certificate (CA:TRUE) used as a \
             server certificate: give that very certificate with --ca FILE.pem to trust it"
        );
        // Another self-signed certificate given with --ca.
        self_signed(&dir, "other", "DNS:localhost,IP:127.0.0.1");
        let e = get(&dir, "self", "127.0.0.1", Some("other"), None).expect_err("other");
        assert!(
            e.contains("for 127.0.0.1 is a CA certificate (CA:TRUE) used as a server certificate, and not the one --ca gives"),
            "{e}"
        );
        // A CA-signed server certificate without --ca: an unknown issuer, with the hint.
        signed_by(&dir, "other", "leaf", "critical,CA:FALSE");
        let e = get(&dir, "leaf", "127.0.0.1", None, None).expect_err("no --ca");
        assert!(
            e.contains("the server's certificate for 127.0.0.1 has an unknown issuer (no web PKI root): for a private server, give its certificate or CA with --ca FILE.pem"),
            "{e}"
        );
        // ... and with a --ca that did not sign it.
        let e = get(&dir, "leaf", "127.0.0.1", Some("self"), None).expect_err("other CA");
        assert!(
            e.contains("for 127.0.0.1 has an unknown issuer: no certificate of --ca signed it"),
            "{e}"
        );
        // ... and with a --ca certificate of the same name as its issuer (another key).
        self_signed_as(&dir, "twin", "other", "DNS:localhost");
        let e = get(&dir, "leaf", "127.0.0.1", Some("twin"), None).expect_err("twin");
        assert!(e.contains("for 127.0.0.1 has a bad signature"), "{e}");
        std::fs::remove_dir_all(&dir).expect("clean");
    }

    #[test]
    fn a_name_mismatch_is_named() {
        let dir = temp("name");
        self_signed(&dir, "self", "DNS:other.example");
        let e = get(&dir, "self", "127.0.0.1", Some("self"), None).expect_err("name");
        assert!(
            e.contains("does not name 127.0.0.1 (a name mismatch"),
            "{e}"
        );
        std::fs::remove_dir_all(&dir).expect("clean");
    }

    #[test]
    fn an_expired_pinned_certificate_is_refused_as_expired() {
        let dir = temp("expired");
        self_signed(&dir, "self", "DNS:localhost,IP:127.0.0.1");
        // Verified as if a year later: past the 30 days.
        let later = UnixTime::since_unix_epoch(
            std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .expect("clock")
                + std::time::Duration::from_secs(365 * 86_400),
        );
        let e = get(&dir, "self", "localhost", Some("self"), Some(later)).expect_err("expired");
        assert!(
            e.contains("the server's certificate for localhost has expired"),
            "{e}"
        );
        std::fs::remove_dir_all(&dir).expect("clean");
    }

    #[test]
    fn a_ca_certificate_not_given_stays_refused_and_a_ca_signed_server_is_trusted() {
        let dir = temp("chain");
        self_signed(&dir, "root", "DNS:root.example");
        signed_by(&dir, "root", "leaf", "critical,CA:FALSE");
        assert_eq!(get(&dir, "leaf", "127.0.0.1", Some("root"), None), Ok(()));
        signed_by(&dir, "root", "caleaf", "critical,CA:TRUE");
        let e = get(&dir, "caleaf", "127.0.0.1", Some("root"), None).expect_err("CA as server");
        assert!(
            e.contains("for 127.0.0.1 is a CA certificate (CA:TRUE) used as a server certificate"),
            "{e}"
        );
        std::fs::remove_dir_all(&dir).expect("clean");
    }
}
