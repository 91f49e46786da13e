/* OpenSSL's ES256 verification in a loop, for instruction counts beside ekl-core's
 * (scripts/bench-es256.sh with BENCH_ES256_CALLGRIND=1; issue 43): `es256-openssl-count N` signs
 * one message with a fresh P-256 key, then verifies it N times the way node:crypto does
 * (EVP_DigestVerifyInit + EVP_DigestVerify with SHA-256, a new context each time). OpenSSL keeps
 * no per-key table, so every verification costs what a key's first does. The count per
 * verification is the difference of two runs divided by the difference of N. Build:
 *   cc -O2 -o es256-openssl-count scripts/bench/es256-openssl-count.c -lcrypto */
#include <openssl/ec.h>
#include <openssl/evp.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv) {
  int n = argc > 1 ? atoi(argv[1]) : 100;
  static const unsigned char msg[] = "eyJhbGciOiJFUzI1NiJ9.eyJpc3MiOiJodHRwczovL24uZXhhbXBsZSJ9";
  unsigned char sig[128];
  size_t siglen = sizeof sig;
  EVP_PKEY *key = EVP_EC_gen("P-256");
  EVP_MD_CTX *ctx = EVP_MD_CTX_new();
  if (key == NULL || ctx == NULL || EVP_DigestSignInit(ctx, NULL, EVP_sha256(), NULL, key) != 1 ||
      EVP_DigestSign(ctx, sig, &siglen, msg, sizeof msg - 1) != 1) {
    fprintf(stderr, "signing failed\n");
    return 2;
  }
  EVP_MD_CTX_free(ctx);
  int ok = 0;
  for (int i = 0; i < n; i++) {
    EVP_MD_CTX *v = EVP_MD_CTX_new();
    ok += v != NULL && EVP_DigestVerifyInit(v, NULL, EVP_sha256(), NULL, key) == 1 &&
          EVP_DigestVerify(v, sig, siglen, msg, sizeof msg - 1) == 1;
    EVP_MD_CTX_free(v);
  }
  EVP_PKEY_free(key);
  printf("%d/%d verifications (OpenSSL %s)\n", ok, n, OpenSSL_version(OPENSSL_VERSION));
  return ok == n ? 0 : 1;
}
