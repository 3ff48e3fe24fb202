//! Which of the engine-layout fast paths this process uses, and why.
//!
//! The binding reads and makes some engine values through their memory layout instead of
//! the GDExtension interface ([`ffi`](crate::engine::ffi),
//! [`cow_data`](crate::engine::cow_data)). Each layout is used only after a probe at
//! start-up has checked it on the running engine, and every
//! probe has a fallback through the public interface. This module holds what decides
//! whether a probe runs at all and what it found:
//!
//! - safe mode: the environment variable [`SAFE_MODE_VARIABLE`] (`off`, `0` or `false`)
//!   or the project setting [`SETTING`] (`false`) turns every fast path off; the variable
//!   wins over the setting. Read once, when the library is initialized.
//! - [`FAILED_PROBES_VARIABLE`]: probes to treat as failed, by name (comma-separated), so
//!   that each fallback can be run alone.
//! - [`WRONG_LAYOUT_VARIABLE`]: probes to run against a deliberately wrong layout (for
//!   tests: shows that the probe rejects it). Each wrong layout is chosen so that the
//!   probe still reads only memory it may read.
//!
//! No probe reads memory outside a block it owns or that the engine handed it: Variants
//! and containers it made, the words of a buffer it allocated itself, and the entry of a
//! dictionary whose value the engine returned and that dictionary's own block, on the
//! engine versions whose sources lay them out (see `ffi`).

use std::sync::OnceLock;

use godot::builtin::{GString, VarDictionary};
use godot::classes::ProjectSettings;
use godot::meta::ToGodot;
use godot::obj::Singleton;

use crate::engine::switch_names::PROBE_NAMES;
pub use crate::engine::switch_names::{
    FAILED_PROBES_VARIABLE, SAFE_MODE_VARIABLE, WRONG_LAYOUT_VARIABLE,
};
/// The project setting (bool, default true) the addon registers.
pub const SETTING: &str = "fast_variant_codec/engine_layout";

/// One checked layout, with the fast path it enables.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Probe {
    /// A Variant's type word at offset 0 and its value at offset 8.
    Variant,
    /// An Array's elements lie one after the other.
    ArrayElements,
    /// A read-only Array's elements are handed out in place, not through a scratch copy.
    ReadOnlyArrays,
    /// A Dictionary's entries form a list of elements holding key and value, whose first
    /// element its block names.
    DictionaryEntries,
    /// The copy-on-write buffer of Strings and packed arrays, and its allocator.
    Buffers,
    /// A NodePath's data block: its names read in place, and made from them.
    NodePaths,
}

impl Probe {
    pub const ALL: [Probe; 6] = [
        Probe::Variant,
        Probe::ArrayElements,
        Probe::ReadOnlyArrays,
        Probe::DictionaryEntries,
        Probe::Buffers,
        Probe::NodePaths,
    ];

    /// The probe's name in the report and in the variables ([`PROBE_NAMES`], in the
    /// order of [`Probe::ALL`]).
    pub fn name(self) -> &'static str {
        PROBE_NAMES[self as usize]
    }

    /// What the binding does instead when the probe fails.
    fn fallback(self) -> &'static str {
        match self {
            Probe::Variant => "types and values read through the interface's getters",
            Probe::ArrayElements => "one interface call per element",
            Probe::ReadOnlyArrays => {
                "each Array asked whether it is read-only; those read one element at a time"
            }
            Probe::DictionaryEntries => {
                "the engine's keys() and values(), two arrays it fills in the dictionary's order"
            }
            Probe::Buffers => "buffers sized by the engine (zero-filled), texts read through the interface",
            Probe::NodePaths => {
                "names asked of the engine one by one; NodePaths decoded by the engine's bytes_to_var"
            }
        }
    }
}

/// What was decided at initialization, before any probe ran.
struct Switches {
    /// Why every fast path is off, if it is.
    safe_mode: Option<String>,
    failed: Vec<Probe>,
    wrong_layout: Vec<Probe>,
}

static SWITCHES: OnceLock<Switches> = OnceLock::new();

/// The probes named in `variable` (unknown names are ignored).
fn probes_in(variable: &str) -> Vec<Probe> {
    probes_named(&std::env::var(variable).unwrap_or_default())
}

/// The probes of the comma-separated `names` (unknown names are ignored).
fn probes_named(names: &str) -> Vec<Probe> {
    names
        .split(',')
        .map(str::trim)
        .filter_map(|name| Probe::ALL.into_iter().find(|p| p.name() == name))
        .collect()
}

fn read_switches(setting: Option<bool>) -> Switches {
    let variable = std::env::var(SAFE_MODE_VARIABLE).ok();
    let variable_off = variable.as_deref().map(|v| {
        matches!(
            v.trim().to_ascii_lowercase().as_str(),
            "off" | "0" | "false"
        )
    });
    let safe_mode = match (variable_off, setting) {
        (Some(true), _) => Some(format!(
            "not run: safe mode ({SAFE_MODE_VARIABLE}={})",
            variable.unwrap_or_default()
        )),
        (Some(false), _) => None,
        (None, Some(false)) => Some(format!(
            "not run: safe mode (project setting {SETTING} = false)"
        )),
        (None, _) => None,
    };
    Switches {
        safe_mode,
        failed: probes_in(FAILED_PROBES_VARIABLE),
        wrong_layout: probes_in(WRONG_LAYOUT_VARIABLE),
    }
}

/// Registers the project setting (bool, default on) and reads the switches once, on the
/// main thread, when the library is initialized; the probes run right after.
pub fn initialize() {
    let mut settings = ProjectSettings::singleton();
    let name = GString::from(SETTING);
    if !settings.has_setting(&name) {
        settings.set_setting(&name, &true.to_variant());
    }
    settings.set_initial_value(&name, &true.to_variant());
    let mut info = VarDictionary::new();
    info.set("name", SETTING);
    info.set("type", godot::builtin::VariantType::BOOL.ord);
    settings.add_property_info(&info);
    let setting = settings.get_setting(&name).try_to::<bool>().ok();
    // A second initialization (never expected) keeps the first decision.
    let _ = SWITCHES.set(read_switches(setting));
}

fn switches() -> &'static Switches {
    // Without `initialize` (never expected inside the engine), the environment alone.
    SWITCHES.get_or_init(|| read_switches(None))
}

/// Whether `probe` checks a deliberately wrong layout (tests only, see the module docs).
fn wrong_layout(probe: Probe) -> bool {
    switches().wrong_layout.contains(&probe)
}

/// The outcome of one probe.
#[derive(Clone, Debug)]
pub struct Verdict {
    /// The probe ran and the layout is as expected.
    pub ok: bool,
    /// Its fast path is in use.
    pub in_use: bool,
    pub detail: String,
}

/// A probe's check that passed: what its fast path needs (`()` when the verdict is all it
/// needs) and what was checked, for the report.
pub struct Passed<T = ()> {
    pub found: T,
    pub detail: String,
}

impl Passed {
    /// A check whose verdict is all its fast path needs.
    pub fn checked(detail: impl Into<String>) -> Self {
        Passed {
            found: (),
            detail: detail.into(),
        }
    }
}

/// What a probe's check returns: [`Passed`], or what differed from the layout expected (or
/// why the check did not run).
pub type ProbeResult<T = ()> = Result<Passed<T>, String>;

/// Runs `probe`'s check unless safe mode or the variables say otherwise, and decides
/// whether its fast path is used: when the check passed and `needs` (the probes it builds
/// on) are in use. `run` is told whether to check a deliberately wrong layout
/// ([`WRONG_LAYOUT_VARIABLE`]). Returns the verdict and, if the fast path is in use, what
/// the check found.
pub fn check<T>(
    probe: Probe,
    needs: &[(Probe, &Verdict)],
    run: impl FnOnce(bool) -> ProbeResult<T>,
) -> (Verdict, Option<T>) {
    let off = |detail: String| {
        (
            Verdict {
                ok: false,
                in_use: false,
                detail: format!("{detail}; instead: {}", probe.fallback()),
            },
            None,
        )
    };
    let switches = switches();
    if let Some(reason) = &switches.safe_mode {
        return off(reason.clone());
    }
    if switches.failed.contains(&probe) {
        return off(format!("treated as failed ({FAILED_PROBES_VARIABLE})"));
    }
    if let Some((missing, _)) = needs.iter().find(|(_, v)| !v.in_use) {
        return off(format!("not run: needs the {} probe", missing.name()));
    }
    match run(wrong_layout(probe)) {
        Ok(Passed { found, detail }) => (
            Verdict {
                ok: true,
                in_use: true,
                detail,
            },
            Some(found),
        ),
        Err(difference) => off(format!("failed: {difference}")),
    }
}

/// The running engine's major, minor and patch version (0 where it does not say), asked
/// once: the probes and the rules that follow the engine's version read it.
pub fn engine_version() -> (i64, i64, i64) {
    static VERSION: OnceLock<(i64, i64, i64)> = OnceLock::new();
    *VERSION.get_or_init(|| {
        let version = godot::classes::Engine::singleton().get_version_info();
        let number = |part: &str| {
            version
                .get(part)
                .and_then(|v| v.try_to::<i64>().ok())
                .unwrap_or(0)
        };
        (number("major"), number("minor"), number("patch"))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Each probe's name is its own, at its place in the run order, and names it back.
    #[test]
    fn every_probe_has_its_name() {
        for (i, probe) in Probe::ALL.into_iter().enumerate() {
            assert_eq!(probe as usize, i);
            assert_eq!(probe.name(), PROBE_NAMES[i]);
            assert_eq!(probes_named(probe.name()), vec![probe]);
        }
        assert_eq!(
            probes_named(" buffers, nonsense,variant"),
            vec![Probe::Buffers, Probe::Variant]
        );
    }
}
