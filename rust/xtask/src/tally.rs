//! The counts of `test` and `package --check`: what each step and suite passed and failed,
//! read from their output (cargo's `test result:` lines, the Godot runner's `N passed, N
//! failed`, the history suite's `history cases:` line).

use std::process::Command;
use std::time::Instant;

use crate::process::run_echoing;

/// The line test_values_with_history.gd prints: `history cases: N agreed, N disagreed`.
const HISTORY_MARKER: &str = "history cases:";

/// Counts of one test step.
pub struct Tally {
    pub passed: usize,
    pub failed: usize,
    /// The parity suite's `LABEL: N passed, N failed` line of each setting it ran in.
    pub settings: Vec<String>,
    /// Values with a history that agreed with the engine in every way, and that did not,
    /// over every setting.
    pub history: (usize, usize),
    /// The counts of the suites in the engine built with AddressSanitizer, or why they
    /// did not run.
    pub asan: Result<(usize, usize), String>,
    /// The counts of the runs through the GDScript fallback `FastVariant`.
    pub fallback: (usize, usize),
    /// The counts of the suite in the engine built with double precision, or why it did
    /// not run.
    pub double: Result<(usize, usize), String>,
}

impl Default for Tally {
    fn default() -> Self {
        Tally {
            passed: 0,
            failed: 0,
            settings: Vec::new(),
            history: (0, 0),
            asan: Err("not reached".into()),
            fallback: (0, 0),
            double: Err("not reached".into()),
        }
    }
}

impl Tally {
    pub fn add(&mut self, passed: usize, failed: usize) {
        self.passed += passed;
        self.failed += failed;
    }

    /// A step with no count of its own is one test.
    pub fn step(&mut self, name: &str, ok: bool) {
        eprintln!("== {name}: {}", if ok { "ok" } else { "FAILED" });
        self.add(usize::from(ok), usize::from(!ok));
    }
}

/// `N passed` / `N failed` from lines such as cargo's `test result: ok. 5 passed; 0 failed; …`
/// and the Godot runner's `N passed, N failed`.
pub fn counts(lines: &[String], marker: &str) -> (usize, usize) {
    marked_counts(lines, marker, " passed", " failed")
}

/// The numbers before `first` and before `second`, summed over the lines holding `marker`.
fn marked_counts(lines: &[String], marker: &str, first: &str, second: &str) -> (usize, usize) {
    let number_before = |line: &str, word: &str| -> usize {
        line.split(word)
            .next()
            .and_then(|head| {
                head.split(|c: char| !c.is_ascii_digit())
                    .rfind(|s| !s.is_empty())
            })
            .and_then(|n| n.parse().ok())
            .unwrap_or(0)
    };
    lines
        .iter()
        .filter(|l| l.contains(marker))
        .fold((0, 0), |(a, b), l| {
            (a + number_before(l, first), b + number_before(l, second))
        })
}

/// Runs `cmd` (a script that runs the suites and ends with the runner's `N passed, N
/// failed`), adds its counts to `tally` and prints them as `LABEL: N passed, N failed`,
/// with its wall time.
pub fn run_counted(cmd: &mut Command, label: &str, tally: &mut Tally) -> Result<(), String> {
    let started = Instant::now();
    let (ok, lines) = run_echoing(cmd)?;
    let seconds = started.elapsed().as_secs_f64();
    let (passed, mut failed) = counts(&lines, " passed, ");
    if !ok && failed == 0 {
        failed = 1;
    }
    tally.add(passed, failed);
    let (agreed, disagreed) = marked_counts(&lines, HISTORY_MARKER, " agreed", " disagreed");
    tally.history.0 += agreed;
    tally.history.1 += disagreed;
    let line = format!("{label}: {passed} passed, {failed} failed");
    eprintln!("== {label} took {seconds:.1} s");
    println!("{line}");
    tally.settings.push(line);
    Ok(())
}
