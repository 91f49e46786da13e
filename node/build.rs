//! The build script of the addon: napi-rs's link settings for a Node-API module (`napi_build`).
fn main() {
    napi_build::setup();
}
