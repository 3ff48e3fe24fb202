//! `stream::decode_frames` on arbitrary bytes: it must never panic, and an error must name
//! the value's index and a frame offset within the input, consistent with the frames
//! before it.
#![no_main]

use godot_variant_codec::stream::{decode_frames, encode_frame, FrameErrorKind};
use godot_variant_codec::{encode, DecodeOptions, EncodeOptions};
use libfuzzer_sys::fuzz_target;

mod common;

fuzz_target!(|data: &[u8]| {
    for allow_objects in [false, true] {
        let dopts = DecodeOptions {
            allow_objects,
            ..DecodeOptions::default()
        };
        match decode_frames(data, &dopts) {
            Ok(values) => {
                // Every value re-frames, and the re-framed stream reads back to the same bytes.
                let eopts = EncodeOptions::default();
                // (Values made deeper than their bytes by a typed container's conversion may
                // not encode, as in the engine: see `common::encode_decoded`.)
                if values
                    .iter()
                    .any(|v| common::encode_decoded(v, &eopts, "framing").is_none())
                {
                    continue;
                }
                let mut framed = Vec::new();
                for v in &values {
                    encode_frame(v, &mut framed, &eopts)
                        .unwrap_or_else(|e| panic!("framing a decoded {v:?} failed: {e}"));
                }
                let again = decode_frames(&framed, &dopts)
                    .unwrap_or_else(|e| panic!("reading the re-framed stream failed: {e}"));
                assert_eq!(again.len(), values.len(), "re-framed stream: value count");
                for (a, b) in values.iter().zip(&again) {
                    if !common::has_null_object_key(a) && !common::has_text_starting_with_bom(a) {
                        assert_eq!(encode(a, &eopts).ok(), encode(b, &eopts).ok());
                    }
                }
            }
            Err(e) => {
                let len = data.len();
                assert!(
                    e.frame_offset < len,
                    "frame offset {} not within the {len}-byte input: {e}",
                    e.frame_offset
                );
                // The frames before the failing one read on their own, `index` of them.
                let before = decode_frames(&data[..e.frame_offset], &dopts).unwrap_or_else(|e2| {
                    panic!("the frames before the failing one ({e}) do not read: {e2}")
                });
                assert_eq!(
                    before.len(),
                    e.index,
                    "index disagrees with the frames before: {e}"
                );
                let rest = len - e.frame_offset;
                match &e.kind {
                    FrameErrorKind::Incomplete { needed } => {
                        assert!(*needed > 0, "incomplete, needing 0 bytes: {e}");
                        // It is the last frame: `needed` more bytes complete its prefix or body.
                        let total = rest + needed;
                        if rest >= 4 {
                            let body = u32::from_le_bytes(
                                data[e.frame_offset..e.frame_offset + 4].try_into().unwrap(),
                            ) as usize;
                            assert_eq!(total, 4 + body, "needed disagrees with the prefix: {e}");
                        } else {
                            assert_eq!(total, 4, "needed disagrees with the prefix: {e}");
                        }
                    }
                    FrameErrorKind::Invalid(d) => {
                        assert!(rest >= 4, "invalid frame without a whole prefix: {e}");
                        let body = u32::from_le_bytes(
                            data[e.frame_offset..e.frame_offset + 4].try_into().unwrap(),
                        ) as usize;
                        let frame_end = e.frame_offset + 4 + body;
                        assert!(frame_end <= len, "invalid frame past the input: {e}");
                        assert!(
                            d.offset >= e.frame_offset + 4 && d.offset <= frame_end,
                            "error offset {} outside its frame {}..{frame_end}: {e}",
                            d.offset,
                            e.frame_offset + 4
                        );
                    }
                }
            }
        }
    }
});
