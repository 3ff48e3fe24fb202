//! The layers keep their order: no module of a layer's folder names a module of a layer
//! above it (`crate::<layer>` paths, in code and in doc links alike).

use std::path::{Path, PathBuf};

/// The layers, lowest first: each folder of `src/` may use its own layer and those before
/// it.
const LAYERS: [&str; 3] = ["engine", "convert", "classes"];

/// The `.rs` files under `dir`, at any depth.
fn sources(dir: &Path) -> Vec<PathBuf> {
    let mut files = Vec::new();
    for entry in std::fs::read_dir(dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display())) {
        let path = entry.expect("a directory entry").path();
        if path.is_dir() {
            files.extend(sources(&path));
        } else if path.extension().is_some_and(|e| e == "rs") {
            files.push(path);
        }
    }
    files
}

/// The first segment of every `crate::` path in `text`: `crate::a::b` and
/// `crate::{a::b, c}` name `a` (and `c`).
fn crate_modules(text: &str) -> Vec<String> {
    let ident = |s: &str| -> String {
        s.trim_start()
            .chars()
            .take_while(|c| c.is_alphanumeric() || *c == '_')
            .collect()
    };
    let mut modules = Vec::new();
    for (at, _) in text.match_indices("crate::") {
        let rest = &text[at + "crate::".len()..];
        if let Some(group) = rest.strip_prefix('{') {
            let mut depth = 0;
            let end = group
                .find(|c| {
                    match c {
                        '{' => depth += 1,
                        '}' if depth == 0 => return true,
                        '}' => depth -= 1,
                        _ => {}
                    }
                    false
                })
                .unwrap_or(group.len());
            let mut depth = 0;
            let mut start = 0;
            for (i, c) in group[..end].char_indices() {
                match c {
                    '{' => depth += 1,
                    '}' => depth -= 1,
                    ',' if depth == 0 => {
                        modules.push(ident(&group[start..i]));
                        start = i + 1;
                    }
                    _ => {}
                }
            }
            modules.push(ident(&group[start..end]));
        } else {
            modules.push(ident(rest));
        }
    }
    modules.retain(|m| !m.is_empty());
    modules
}

/// Every reference from a layer's file to a layer above it, as `file: crate::module`.
fn upward_references(src: &Path) -> Vec<String> {
    let mut found = Vec::new();
    for (rank, layer) in LAYERS.iter().enumerate() {
        for file in sources(&src.join(layer)) {
            let text = std::fs::read_to_string(&file).expect("a readable source file");
            for module in crate_modules(&text) {
                let used = LAYERS.iter().position(|l| *l == module);
                if used.is_none_or(|used| used > rank) {
                    found.push(format!("{}: crate::{module}", file.display()));
                }
            }
        }
    }
    found
}

#[test]
fn paths_name_their_first_module() {
    assert_eq!(
        crate_modules("use crate::engine::ffi::{ffi, Ffi};\n[`x`](crate::convert::to_variant)"),
        ["engine", "convert"]
    );
    assert_eq!(
        crate_modules("use crate::{engine::{ffi, string}, classes::batch};"),
        ["engine", "classes"]
    );
}

#[test]
fn no_layer_uses_a_layer_above_it() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let top: Vec<String> = std::fs::read_dir(&src)
        .expect("src/")
        .map(|e| e.expect("a directory entry").path())
        .filter(|p| p.is_dir())
        .filter_map(|p| Some(p.file_name()?.to_str()?.to_string()))
        .collect();
    for folder in &top {
        assert!(
            LAYERS.contains(&folder.as_str()),
            "src/{folder} is not one of the layers {LAYERS:?}"
        );
    }
    let upward = upward_references(&src);
    assert!(
        upward.is_empty(),
        "modules that use a layer above their own (or a module outside the layers):\n{}",
        upward.join("\n")
    );
}
