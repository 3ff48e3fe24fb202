//! The Mach-O facts `cargo xtask package` needs of the macOS library, read from its bytes:
//! the slices of a universal file and, of each, its CPU, file type, install name, linked
//! libraries, deployment target, code signature's place and exported symbols (the export
//! trie, which dyld looks symbols up in); and the one edit the build makes, keeping only the
//! entry symbol in the export trie (Zig's linker ignores `-exported_symbols_list`).
//!
//! The formats are those of Apple's `<mach-o/fat.h>`, `<mach-o/loader.h>` and the export
//! trie of dyld (`<mach-o/loader.h>`, "export trie"); every offset is checked against the
//! data, and bad data is an error naming what and where, never a panic.

use std::ops::Range;

/// `FAT_MAGIC` (big-endian, 32-bit offsets), `MH_MAGIC_64` (little-endian).
pub(crate) const FAT_MAGIC: u32 = 0xcafe_babe;
const MH_MAGIC_64: u32 = 0xfeed_facf;
pub(crate) const CPU_TYPE_X86_64: u32 = 0x0100_0007;
pub(crate) const CPU_TYPE_ARM64: u32 = 0x0100_000c;
const MH_DYLIB: u32 = 6;

const LC_SEGMENT_64: u32 = 0x19;
const LC_ID_DYLIB: u32 = 0x0d;
const LC_LOAD_DYLIB: u32 = 0x0c;
const LC_LOAD_WEAK_DYLIB: u32 = 0x8000_0018;
const LC_REEXPORT_DYLIB: u32 = 0x8000_001f;
const LC_LAZY_LOAD_DYLIB: u32 = 0x20;
const LC_LOAD_UPWARD_DYLIB: u32 = 0x8000_0023;
const LC_CODE_SIGNATURE: u32 = 0x1d;
const LC_VERSION_MIN_MACOSX: u32 = 0x24;
const LC_BUILD_VERSION: u32 = 0x32;
const LC_DYLD_INFO: u32 = 0x22;
const LC_DYLD_INFO_ONLY: u32 = 0x8000_0022;
const LC_DYLD_EXPORTS_TRIE: u32 = 0x8000_0033;
/// `PLATFORM_MACOS` of `LC_BUILD_VERSION`.
const PLATFORM_MACOS: u32 = 1;

/// One architecture's Mach-O image: its place in the file and what it says.
#[derive(Debug, PartialEq)]
pub(crate) struct Slice {
    pub(crate) cpu_type: u32,
    /// Where the image is in the file (the whole file for a thin one).
    pub(crate) range: Range<usize>,
    pub(crate) is_dylib: bool,
    pub(crate) install_name: Option<String>,
    pub(crate) linked: Vec<String>,
    /// The macOS deployment target (`minos`), as (major, minor, patch).
    pub(crate) min_macos: Option<(u32, u32, u32)>,
    /// `LC_CODE_SIGNATURE`'s data, relative to the image.
    pub(crate) signature: Option<Range<usize>>,
    /// The end of the `__LINKEDIT` segment's data, relative to the image.
    pub(crate) linkedit_end: Option<usize>,
    /// The names in the export trie, in its order.
    pub(crate) exports: Vec<String>,
    /// The export trie's bytes, relative to the image.
    export_trie: Option<Range<usize>>,
}

fn u32_at(data: &[u8], at: usize, big_endian: bool, what: &str) -> Result<u32, String> {
    let bytes: [u8; 4] = data
        .get(at..at.wrapping_add(4))
        .and_then(|b| b.try_into().ok())
        .ok_or_else(|| format!("{what}: 4 bytes at {at} are past the end ({})", data.len()))?;
    Ok(if big_endian {
        u32::from_be_bytes(bytes)
    } else {
        u32::from_le_bytes(bytes)
    })
}

fn le32(data: &[u8], at: usize, what: &str) -> Result<u32, String> {
    u32_at(data, at, false, what)
}

/// `start..start + len` when it lies within `0..limit`.
fn range_within(start: u64, len: u64, limit: usize, what: &str) -> Result<Range<usize>, String> {
    let end = start
        .checked_add(len)
        .filter(|end| *end <= limit as u64)
        .ok_or_else(|| format!("{what}: {start}+{len} is past the end ({limit})"))?;
    Ok(start as usize..end as usize)
}

/// The slices of a universal file, or the one image of a thin file.
pub(crate) fn slices(data: &[u8]) -> Result<Vec<Slice>, String> {
    if u32_at(data, 0, true, "fat header")? == FAT_MAGIC {
        let count = u32_at(data, 4, true, "fat header")? as usize;
        // Real universal files have a handful of slices; the header is 20 bytes each.
        if count == 0 || 8 + count * 20 > data.len() {
            return Err(format!("fat header: {count} slices do not fit the file"));
        }
        (0..count)
            .map(|i| {
                let at = 8 + i * 20;
                let offset = u32_at(data, at + 8, true, "fat_arch")?;
                let size = u32_at(data, at + 12, true, "fat_arch")?;
                let range = range_within(offset.into(), size.into(), data.len(), "fat_arch")?;
                let slice = image(&data[range.clone()], range.start)?;
                let cpu_type = u32_at(data, at, true, "fat_arch")?;
                if cpu_type != slice.cpu_type {
                    return Err(format!(
                        "fat_arch {i} says CPU {cpu_type:#x}, its image {:#x}",
                        slice.cpu_type
                    ));
                }
                Ok(slice)
            })
            .collect()
    } else {
        Ok(vec![image(data, 0)?])
    }
}

/// The facts of the 64-bit little-endian image `data`, which starts at `start` in its file.
fn image(data: &[u8], start: usize) -> Result<Slice, String> {
    let magic = le32(data, 0, "Mach-O header")?;
    if magic != MH_MAGIC_64 {
        return Err(format!(
            "at byte {start}: magic {magic:#x} is not a 64-bit Mach-O"
        ));
    }
    let mut slice = Slice {
        cpu_type: le32(data, 4, "Mach-O header")?,
        range: start..start + data.len(),
        is_dylib: le32(data, 12, "Mach-O header")? == MH_DYLIB,
        install_name: None,
        linked: Vec::new(),
        min_macos: None,
        signature: None,
        linkedit_end: None,
        exports: Vec::new(),
        export_trie: None,
    };
    let count = le32(data, 16, "Mach-O header")?;
    let mut at = 32; // sizeof(mach_header_64)
    for _ in 0..count {
        let cmd = le32(data, at, "load command")?;
        let size = le32(data, at + 4, "load command")? as usize;
        let command = data
            .get(at..at.saturating_add(size))
            .filter(|_| size >= 8)
            .ok_or_else(|| {
                format!("load command {cmd:#x} at {at}: size {size} is out of bounds")
            })?;
        read_command(&mut slice, data, cmd, command)?;
        at += size;
    }
    if let Some(trie) = slice.export_trie.clone() {
        slice.exports = export_names(&data[trie])?;
    }
    Ok(slice)
}

fn read_command(slice: &mut Slice, data: &[u8], cmd: u32, command: &[u8]) -> Result<(), String> {
    let field = |at: usize| le32(command, at, "load command");
    match cmd {
        LC_ID_DYLIB => slice.install_name = Some(dylib_name(command)?),
        LC_LOAD_DYLIB | LC_LOAD_WEAK_DYLIB | LC_REEXPORT_DYLIB | LC_LAZY_LOAD_DYLIB
        | LC_LOAD_UPWARD_DYLIB => slice.linked.push(dylib_name(command)?),
        LC_BUILD_VERSION if field(8)? == PLATFORM_MACOS => {
            slice.min_macos = Some(version(field(12)?));
        }
        LC_VERSION_MIN_MACOSX => slice.min_macos = Some(version(field(8)?)),
        LC_CODE_SIGNATURE => {
            let range = range_within(
                field(8)?.into(),
                field(12)?.into(),
                data.len(),
                "LC_CODE_SIGNATURE",
            )?;
            slice.signature = Some(range);
        }
        LC_SEGMENT_64
            if command.get(8..24).and_then(|n| n.split(|b| *b == 0).next())
                == Some(b"__LINKEDIT") =>
        {
            let offset = u64_le(command, 40)?;
            let size = u64_le(command, 48)?;
            slice.linkedit_end = Some(range_within(offset, size, data.len(), "__LINKEDIT")?.end);
        }
        LC_DYLD_INFO | LC_DYLD_INFO_ONLY => {
            let range = range_within(
                field(40)?.into(),
                field(44)?.into(),
                data.len(),
                "export trie",
            )?;
            slice.export_trie = Some(range);
        }
        LC_DYLD_EXPORTS_TRIE => {
            let range = range_within(
                field(8)?.into(),
                field(12)?.into(),
                data.len(),
                "export trie",
            )?;
            slice.export_trie = Some(range);
        }
        _ => {}
    }
    Ok(())
}

fn u64_le(data: &[u8], at: usize) -> Result<u64, String> {
    let low = le32(data, at, "segment")?;
    let high = le32(data, at + 4, "segment")?;
    Ok(u64::from(high) << 32 | u64::from(low))
}

/// X.Y.Z packed in nibbles: xxxx.yy.zz.
fn version(packed: u32) -> (u32, u32, u32) {
    (packed >> 16, (packed >> 8) & 0xff, packed & 0xff)
}

/// The name of a `dylib_command`: a C string at the offset its first field gives.
fn dylib_name(command: &[u8]) -> Result<String, String> {
    let offset = le32(command, 8, "dylib command")? as usize;
    let name = command
        .get(offset..)
        .ok_or_else(|| format!("dylib command: name offset {offset} is out of bounds"))?;
    let end = name.iter().position(|b| *b == 0).unwrap_or(name.len());
    Ok(String::from_utf8_lossy(&name[..end]).into_owned())
}

fn uleb128(data: &[u8], at: &mut usize) -> Result<u64, String> {
    let mut value = 0u64;
    for shift in (0..64).step_by(7) {
        let byte = *data
            .get(*at)
            .ok_or_else(|| format!("export trie: ULEB128 at {at} runs past the end"))?;
        *at += 1;
        value |= u64::from(byte & 0x7f) << shift;
        if byte & 0x80 == 0 {
            return Ok(value);
        }
    }
    Err(format!(
        "export trie: ULEB128 before {at} is longer than 64 bits"
    ))
}

fn uleb128_bytes(mut value: u64, out: &mut Vec<u8>) {
    loop {
        let byte = (value & 0x7f) as u8;
        value >>= 7;
        if value == 0 {
            out.push(byte);
            return;
        }
        out.push(byte | 0x80);
    }
}

/// One exported symbol: its name and its terminal data (flags and address, or what a
/// re-export or resolver holds), as the trie stores them.
struct Export {
    name: String,
    terminal: Vec<u8>,
}

/// Every symbol of an export trie, depth first. Each node: the size of its terminal data
/// (ULEB128; 0 for an inner node), that data, a child count, and per child a C-string edge
/// and the child's offset (ULEB128) from the trie's start. Each node is visited once at
/// most, so a trie that loops is an error, not a hang.
fn exports_of(trie: &[u8]) -> Result<Vec<Export>, String> {
    let mut found = Vec::new();
    let mut visited = vec![false; trie.len()];
    let mut stack = vec![(0usize, Vec::new())];
    while let Some((node, prefix)) = stack.pop() {
        if node >= trie.len() {
            return Err(format!(
                "export trie: node at {node} is past the end ({})",
                trie.len()
            ));
        }
        if std::mem::replace(&mut visited[node], true) {
            return Err(format!("export trie: node at {node} is reached twice"));
        }
        let mut at = node;
        let terminal_size = uleb128(trie, &mut at)? as usize;
        if terminal_size > 0 {
            let terminal = trie
                .get(at..at.saturating_add(terminal_size))
                .ok_or_else(|| format!("export trie: terminal data at {at} is past the end"))?;
            found.push(Export {
                name: String::from_utf8_lossy(&prefix).into_owned(),
                terminal: terminal.to_vec(),
            });
            at += terminal_size;
        }
        let children = *trie
            .get(at)
            .ok_or_else(|| format!("export trie: child count at {at} is past the end"))?;
        at += 1;
        let mut edges = Vec::new();
        for _ in 0..children {
            let len = trie[at.min(trie.len())..]
                .iter()
                .position(|b| *b == 0)
                .ok_or_else(|| format!("export trie: edge at {at} has no end"))?;
            let mut name = prefix.clone();
            name.extend_from_slice(&trie[at..at + len]);
            at += len + 1;
            let child = uleb128(trie, &mut at)? as usize;
            edges.push((child, name));
        }
        // Reversed, so that the stack visits the children in the trie's order.
        stack.extend(edges.into_iter().rev());
    }
    Ok(found)
}

fn export_names(trie: &[u8]) -> Result<Vec<String>, String> {
    Ok(exports_of(trie)?.into_iter().map(|e| e.name).collect())
}

/// A trie of exactly one symbol: the root, one edge with its whole name, its node.
fn one_export_trie(export: &Export) -> Vec<u8> {
    let mut edge_and_offset = Vec::new();
    edge_and_offset.extend_from_slice(export.name.as_bytes());
    edge_and_offset.push(0);
    // The root is one byte of terminal size (0) and one of child count (1); the child's
    // offset follows the edge and is itself one or two bytes long.
    let mut trie;
    let mut child = 2 + edge_and_offset.len() + 1;
    loop {
        trie = vec![0, 1];
        trie.extend_from_slice(&edge_and_offset);
        uleb128_bytes(child as u64, &mut trie);
        if trie.len() == child {
            break;
        }
        child = trie.len();
    }
    uleb128_bytes(export.terminal.len() as u64, &mut trie);
    trie.extend_from_slice(&export.terminal);
    trie.push(0); // no children
    trie
}

/// Rewrites the export trie of the thin image `data` in place so that it exports only
/// `keep`, at the address and with the flags it had; the rest of the trie's space is
/// zeroed (dyld reads a trie from its root). The code signature, which covers these bytes,
/// must be made afterwards.
pub(crate) fn keep_only_export(data: &mut [u8], keep: &str) -> Result<(), String> {
    let slice = image(data, 0)?;
    let trie_range = slice
        .export_trie
        .ok_or("the image has no export trie (LC_DYLD_INFO or LC_DYLD_EXPORTS_TRIE)")?;
    let export = exports_of(&data[trie_range.clone()])?
        .into_iter()
        .find(|e| e.name == keep)
        .ok_or_else(|| format!("{keep} is not exported"))?;
    let trie = one_export_trie(&export);
    let room = &mut data[trie_range];
    if trie.len() > room.len() {
        return Err(format!(
            "a trie of {keep} alone ({} bytes) does not fit the old one's {} bytes",
            trie.len(),
            room.len()
        ));
    }
    room.fill(0);
    room[..trie.len()].copy_from_slice(&trie);
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A trie of `_a` (terminal: flags 0, address 0x10) and `_bc` (flags 0, address 0x20),
    /// sharing the edge `_`, as a linker writes it.
    fn two_exports() -> Vec<u8> {
        vec![
            0, 1, b'_', 0, 5, // root: no terminal, one child "_" at 5
            0, 2, b'a', 0, 14, b'b', b'c', 0, 18, // "_": children "a" at 14, "bc" at 18
            2, 0, 0x10, 0, // "_a": terminal (flags 0, address 0x10), no children
            2, 0, 0x20, 0, // "_bc"
        ]
    }

    /// A thin arm64 dylib image: the header, LC_ID_DYLIB, LC_LOAD_DYLIB, LC_BUILD_VERSION
    /// (macOS 11.0), LC_DYLD_INFO_ONLY pointing at `trie` right after the commands.
    fn image_with(trie: &[u8]) -> Vec<u8> {
        fn dylib(cmd: u32, name: &str) -> Vec<u8> {
            let mut c = Vec::new();
            let size = (24 + name.len() + 1).div_ceil(8) * 8;
            for word in [cmd, size as u32, 24, 2, 0x10000, 0x10000] {
                c.extend_from_slice(&word.to_le_bytes());
            }
            c.extend_from_slice(name.as_bytes());
            c.resize(size, 0);
            c
        }
        let mut commands = dylib(LC_ID_DYLIB, "@rpath/libx.dylib");
        commands.extend(dylib(LC_LOAD_DYLIB, "/usr/lib/libSystem.B.dylib"));
        for word in [
            LC_BUILD_VERSION,
            24,
            PLATFORM_MACOS,
            0x000b_0000,
            0x000f_0000,
            0,
        ] {
            commands.extend_from_slice(&word.to_le_bytes());
        }
        let trie_at = 32 + commands.len() + 48;
        let mut info = [0u32; 12];
        info[0] = LC_DYLD_INFO_ONLY;
        info[1] = 48;
        info[10] = trie_at as u32;
        info[11] = trie.len() as u32;
        for word in info {
            commands.extend_from_slice(&word.to_le_bytes());
        }
        let mut data = Vec::new();
        for word in [
            MH_MAGIC_64,
            CPU_TYPE_ARM64,
            0,
            MH_DYLIB,
            4,
            commands.len() as u32,
            0,
            0,
        ] {
            data.extend_from_slice(&word.to_le_bytes());
        }
        data.extend(commands);
        data.extend_from_slice(trie);
        data
    }

    #[test]
    fn the_trie_is_read_in_order_with_its_edges_joined() {
        assert_eq!(export_names(&two_exports()).unwrap(), ["_a", "_bc"]);
    }

    #[test]
    fn a_trie_that_loops_or_runs_out_is_an_error() {
        let mut looping = two_exports();
        looping[4] = 0; // the child "_" is the root again
        assert!(export_names(&looping)
            .unwrap_err()
            .contains("reached twice"));
        let cut = &two_exports()[..15];
        assert!(export_names(cut).is_err());
    }

    #[test]
    fn an_image_says_its_install_name_libraries_target_and_exports() {
        let slice = &slices(&image_with(&two_exports())).unwrap()[0];
        assert_eq!(slice.cpu_type, CPU_TYPE_ARM64);
        assert!(slice.is_dylib);
        assert_eq!(slice.install_name.as_deref(), Some("@rpath/libx.dylib"));
        assert_eq!(slice.linked, ["/usr/lib/libSystem.B.dylib"]);
        assert_eq!(slice.min_macos, Some((11, 0, 0)));
        assert_eq!(slice.exports, ["_a", "_bc"]);
    }

    #[test]
    fn keep_only_export_leaves_one_symbol_with_its_terminal_data() {
        let mut data = image_with(&two_exports());
        keep_only_export(&mut data, "_bc").unwrap();
        let slice = &slices(&data).unwrap()[0];
        assert_eq!(slice.exports, ["_bc"]);
        let trie = &data[slice.export_trie.clone().unwrap()];
        let kept = exports_of(trie).unwrap();
        assert_eq!(kept[0].terminal, [0, 0x20]);
        assert!(keep_only_export(&mut data, "_a")
            .unwrap_err()
            .contains("not exported"));
    }

    #[test]
    fn a_one_symbol_trie_reads_back_whatever_the_name_length() {
        for len in [1, 126, 127, 200, 20_000] {
            let export = Export {
                name: format!("_{}", "x".repeat(len)),
                terminal: vec![0, 0x90, 0x02],
            };
            let read = exports_of(&one_export_trie(&export)).unwrap();
            assert_eq!(read.len(), 1);
            assert_eq!(read[0].name, export.name);
            assert_eq!(read[0].terminal, export.terminal);
        }
    }

    #[test]
    fn a_universal_file_lists_each_slice_where_it_lies() {
        let thin = image_with(&two_exports());
        let mut fat = Vec::new();
        for word in [FAT_MAGIC, 1, CPU_TYPE_ARM64, 0, 64, thin.len() as u32, 6] {
            fat.extend_from_slice(&word.to_be_bytes());
        }
        fat.resize(64, 0);
        fat.extend_from_slice(&thin);
        let slices = slices(&fat).unwrap();
        assert_eq!(slices.len(), 1);
        assert_eq!(slices[0].range, 64..64 + thin.len());
        fat[8..12].copy_from_slice(&CPU_TYPE_X86_64.to_be_bytes());
        assert!(super::slices(&fat).unwrap_err().contains("says CPU"));
        fat[20..24].copy_from_slice(&u32::MAX.to_be_bytes());
        assert!(super::slices(&fat).unwrap_err().contains("past the end"));
    }
}
