//! A full object's script: the property that carries it and the paths it may name, by
//! the engine's rules for writing and for reading.

use crate::error::EncodeErrorKind;
use crate::types::Generation;

/// The property through which a full object carries its script, as a `res://` path.
pub const SCRIPT_PROPERTY: &str = "script";

/// Where scripts' paths start: inside the project.
const RESOURCE_PREFIX: &str = "res://";

/// Which side of the format applies [`is_script_path`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Side {
    /// `encode_variant`: the script's own path, checked for the prefix alone.
    Write,
    /// `decode_variant`: a path read, which must name a script the engine can load.
    Read,
}

/// The script-path rule: scripts travel as paths inside the project. Written, a path needs
/// the `res://` prefix (the engine checks no more of a script's own path); read, it needs
/// more than the prefix too (the engine loads the script there, and `res://` alone names
/// none).
#[inline]
pub(crate) fn is_script_path(path: &str, side: Side) -> bool {
    path.starts_with(RESOURCE_PREFIX) && (side == Side::Write || path.len() > RESOURCE_PREFIX.len())
}

/// Scripts travel as paths inside the project; anything else is refused on both sides.
/// This is the test of a path written (one read must also be longer than `res://`).
pub fn check_script_path(path: &str) -> Result<(), EncodeErrorKind> {
    if is_script_path(path, Side::Write) {
        Ok(())
    } else {
        Err(EncodeErrorKind::InvalidScriptPath(path.to_owned()))
    }
}

/// Whether a whole object's property `name` holds its script's path, which must then be
/// a `res://` path or nil (Godot 4; before, the script is an ordinary value).
#[inline]
pub(crate) fn is_script_path_property(name: &str, generation: Generation) -> bool {
    name == SCRIPT_PROPERTY && generation.has_script_paths()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_bare_prefix_is_written_but_not_read() {
        assert!(is_script_path("res://", Side::Write));
        assert!(!is_script_path("res://", Side::Read));
        for side in [Side::Write, Side::Read] {
            assert!(is_script_path("res://a.gd", side));
            assert!(!is_script_path("user://a.gd", side));
            assert!(!is_script_path("", side));
        }
    }
}
