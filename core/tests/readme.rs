//! The Rust quick start of the repository's README is the one of the crate's README, which
//! `src/lib.rs` compiles and runs as a doctest (`cargo test -p ekl-core --doc`): the two cannot
//! drift apart.

fn rust_blocks(text: &str) -> Vec<String> {
    let mut blocks = Vec::new();
    let mut current: Option<String> = None;
    for line in text.lines() {
        match (&mut current, line.trim_end()) {
            (None, "```rust") => current = Some(String::new()),
            (Some(block), "```") => {
                blocks.push(std::mem::take(block));
                current = None;
            }
            (Some(block), _) => {
                block.push_str(line);
                block.push('\n');
            }
            (None, _) => {}
        }
    }
    blocks
}

#[test]
fn the_readmes_share_one_rust_quick_start() {
    let root = include_str!("../../README.md");
    let core = include_str!("../README.md");
    let root_blocks = rust_blocks(root);
    let core_blocks = rust_blocks(core);
    assert_eq!(root_blocks.len(), 1, "one ```rust block in README.md");
    assert_eq!(core_blocks.len(), 1, "one ```rust block in core/README.md");
    assert_eq!(
        root_blocks[0], core_blocks[0],
        "README.md and core/README.md differ"
    );
    // The block does something: it canonicalises and fingerprints.
    assert!(core_blocks[0].contains("fingerprint::fingerprint("));
}
