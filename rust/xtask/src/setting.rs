//! The settings the bundled Godot project runs in: the engine build (the editor or the
//! release export template) and the binding's environment variables.

use std::path::{Path, PathBuf};
use std::process::Command;

use crate::process::project_dir;
use crate::switch_names::{
    FAILED_PROBES_VARIABLE, POOL_THREADS_VARIABLE, SAFE_MODE_VARIABLE, WRONG_LAYOUT_VARIABLE,
};

/// The variable that makes the suites test the addon's GDScript fallback (`FastVariant`)
/// in place of `FastVariantCodec` (godot_project/test_runner/test_runner.gd).
pub const CODEC_VARIABLE: &str = "FVC_CODEC";

/// One way of running the bundled Godot project: the engine build (the editor, a debug
/// build, or the release export template through scripts/release-template.sh), the
/// binding's environment, and whether the addon's library is there.
pub struct Setting {
    pub label: String,
    pub env: Vec<(&'static str, String)>,
    pub release_template: bool,
    /// The project as a platform without the addon's library has it (run_tests.sh
    /// `--without-library`).
    pub without_library: bool,
    /// Arguments for bench.gd in this setting.
    pub args: Vec<String>,
}

impl Setting {
    fn new(label: &str, env: &[(&'static str, &str)], release_template: bool) -> Self {
        Setting {
            label: label.into(),
            env: env.iter().map(|&(k, v)| (k, v.to_owned())).collect(),
            release_template,
            without_library: false,
            args: Vec::new(),
        }
    }

    /// The codec's thread pool off: all its work on the calling thread.
    pub fn pool_off(release_template: bool) -> Self {
        let label = if release_template {
            "release template, pool off"
        } else {
            "pool off"
        };
        Self::new(label, &[(POOL_THREADS_VARIABLE, "0")], release_template)
    }

    /// A CPU-bound thread beside the benchmark for its whole run.
    pub fn busy_core(release_template: bool) -> Self {
        let label = if release_template {
            "release template, busy core"
        } else {
            "busy core"
        };
        let mut setting = Self::new(label, &[], release_template);
        setting.args.push("--busy-core".into());
        setting
    }

    pub fn default_paths() -> Self {
        Self::new("default", &[], false)
    }

    pub fn safe_mode() -> Self {
        Self::new("safe mode", &[(SAFE_MODE_VARIABLE, "off")], false)
    }

    pub fn failed_probe(probe: &str) -> Self {
        let label = format!("failed probe {probe}");
        Self::new(&label, &[(FAILED_PROBES_VARIABLE, probe)], false)
    }

    pub fn wrong_layout(probe: &str) -> Self {
        let label = format!("wrong layout {probe}");
        Self::new(&label, &[(WRONG_LAYOUT_VARIABLE, probe)], false)
    }

    pub fn release_template() -> Self {
        Self::new("release template", &[], true)
    }

    /// The suites through the GDScript fallback `FastVariant`: with the library, in the
    /// editor build, which it forwards every call to; without it, in the editor build (a
    /// copy of the project without the .gdextension) and in the release template (the
    /// project exported with a .gdextension that lists no Linux library, as an export to a
    /// platform without one carries it), where the engine's own functions do the work.
    pub fn fallback(library: bool, release_template: bool) -> Self {
        let label = match (library, release_template) {
            (true, _) => "fallback, library",
            (false, false) => "fallback, no library",
            (false, true) => "fallback, release template, no library",
        };
        let mut setting = Self::new(label, &[(CODEC_VARIABLE, "FastVariant")], release_template);
        setting.without_library = !library;
        setting
    }

    /// The engine build and the label: "editor build, safe mode", "release template".
    pub fn description(&self) -> String {
        if self.release_template {
            self.label.clone()
        } else {
            format!("editor build, {}", self.label)
        }
    }

    /// This setting's table `STEM` in `dir`: `STEM.md` for the default, else
    /// `STEM-LABEL.md` (as `godot-safe-mode.md`).
    pub fn table_file(&self, dir: &Path, stem: &str) -> PathBuf {
        match self.label.as_str() {
            "default" => dir.join(format!("{stem}.md")),
            label => dir.join(format!(
                "{stem}-{}.md",
                label.replace(", ", "-").replace(' ', "-")
            )),
        }
    }

    /// Gives `cmd` this setting's environment; the binding's variables (and the suites'
    /// codec) it does not set are removed, so that the caller's environment cannot change
    /// what a setting tests.
    pub fn apply<'c>(&self, cmd: &'c mut Command) -> &'c mut Command {
        cmd.env_remove(SAFE_MODE_VARIABLE)
            .env_remove(FAILED_PROBES_VARIABLE)
            .env_remove(WRONG_LAYOUT_VARIABLE)
            .env_remove(POOL_THREADS_VARIABLE)
            .env_remove(CODEC_VARIABLE)
            .envs(self.env.iter().map(|(k, v)| (k, v)))
    }

    /// A command that runs the bundled project headless with the user args `args`: in the
    /// editor build the `--script` `script`, in the release template (which cannot run
    /// `--script`) the main scene, which runs that script on `entry` (test_runner.gd).
    pub fn project_script(
        &self,
        godot: &Path,
        script: &str,
        entry: &str,
        args: &[String],
    ) -> Command {
        let dir = project_dir();
        let mut cmd;
        if self.release_template {
            cmd = Command::new("bash");
            cmd.arg(dir.join("scripts/release-template.sh"))
                .env("GODOT", godot)
                .arg(entry);
        } else {
            cmd = Command::new(godot);
            cmd.args(["--headless", "--path"])
                .arg(dir.join("godot_project"))
                .args(["--script", script, "--"]);
        }
        cmd.args(args);
        self.apply(&mut cmd);
        cmd
    }
}
