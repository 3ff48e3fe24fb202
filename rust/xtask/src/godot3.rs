//! The Godot 3 golden corpus (tests/golden/godot3): `cargo xtask golden3` has the live
//! Godot 3.6.2 and 3.2.3 engines (scripts/provision-godot3.sh) run the Godot 3 generator
//! (tests/golden/godot3/project/generate.gd), each writing its corpus, its `store_var` save
//! file and that file's sidecar.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

/// The generator project's `application/config/custom_user_dir_name`.
const USER_DIR_NAME: &str = "fastvariantcodec-golden3";

/// A Godot 3 engine the corpus is made with.
pub struct Engine {
    /// The argument of scripts/provision-godot3.sh (`3.6`, `3.2`).
    pub series: &'static str,
    /// The version in the corpus's file names (`3.6.2`).
    pub version: &'static str,
}

/// Godot 3.6.2 (the last 3.x, the judge of the mutated inputs) and 3.2.3.
pub const ENGINES: [Engine; 2] = [
    Engine {
        series: "3.6",
        version: "3.6.2",
    },
    Engine {
        series: "3.2",
        version: "3.2.3",
    },
];

impl Engine {
    /// The files the generator writes for this engine: the corpus, the save file, the
    /// save file's sidecar.
    pub fn files(&self) -> [String; 3] {
        let v = self.version;
        [
            format!("godot-{v}.json"),
            format!("save-{v}.bin"),
            format!("save-{v}.json"),
        ]
    }

    /// The engine's binary: `$GODOT_3_6` / `$GODOT_3_2`, or the cached Debian build,
    /// provisioned on first use.
    pub fn binary(&self, project: &Path) -> Result<PathBuf, String> {
        let script = project.join("scripts/provision-godot3.sh");
        let out = Command::new("bash")
            .arg(&script)
            .arg(self.series)
            .stderr(Stdio::inherit())
            .output()
            .map_err(|e| format!("cannot run {}: {e}", script.display()))?;
        if !out.status.success() {
            return Err(format!("could not provision Godot {}", self.version));
        }
        Ok(PathBuf::from(String::from_utf8_lossy(&out.stdout).trim()))
    }

    /// Runs the generator in this engine, writing [`Engine::files`] into `out_dir`.
    ///
    /// The generator writes into `target/godot3/out-VERSION` first; the files are moved to
    /// `out_dir` only when it succeeded: exit code 0, its summary line, all three files
    /// (Godot 3 exits with 0 when the script does not even parse). The engine logs an error
    /// for every input it rejects (thousands), so its output goes to
    /// `target/godot3/generate-VERSION.log`; the generator's own lines are echoed, and on
    /// failure the log's last lines. The engine's data directory is
    /// `target/godot3/data-VERSION` (`$XDG_DATA_HOME`): the project's `user://` (where the
    /// engine's log is, which the generator reads) is made in it beforehand, as Godot 3.2.3
    /// cannot make its log in a user directory that does not exist yet.
    pub fn regenerate(&self, project: &Path, out_dir: &Path) -> Result<(), String> {
        let binary = self.binary(project)?;
        let work = project.join("target/godot3");
        let data_dir = work.join(format!("data-{}", self.version));
        let stage = work.join(format!("out-{}", self.version));
        let _ = std::fs::remove_dir_all(&stage);
        for dir in [
            &data_dir.join(USER_DIR_NAME),
            &stage,
            &out_dir.to_path_buf(),
        ] {
            std::fs::create_dir_all(dir)
                .map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
        }
        let log_path = work.join(format!("generate-{}.log", self.version));
        let log = std::fs::File::create(&log_path)
            .map_err(|e| format!("cannot create {}: {e}", log_path.display()))?;
        let err_log = log.try_clone().map_err(|e| e.to_string())?;
        let files = self.files();
        let mut cmd = Command::new(&binary);
        cmd.arg("--path")
            .arg(project.join("tests/golden/godot3/project"))
            .args(["--script", "res://generate.gd", "--"])
            .arg(format!("--out={}", stage.join(&files[0]).display()))
            .arg(format!("--save={}", stage.join(&files[1]).display()))
            .env("XDG_DATA_HOME", &data_dir)
            .stdout(log)
            .stderr(err_log);
        eprintln!("$ {cmd:?}");
        let status = cmd
            .status()
            .map_err(|e| format!("cannot run {}: {e}", binary.display()))?;
        let text = std::fs::read_to_string(&log_path).unwrap_or_default();
        let lines: Vec<&str> = text.lines().collect();
        for line in lines.iter().filter(|l| l.starts_with("generate.gd: ")) {
            eprintln!("{line}");
        }
        let wrote = lines
            .iter()
            .any(|l| l.starts_with("generate.gd: ") && l.contains(" cases to "));
        if status.success() && wrote && files.iter().all(|f| stage.join(f).is_file()) {
            for f in &files {
                std::fs::rename(stage.join(f), out_dir.join(f))
                    .or_else(|_| std::fs::copy(stage.join(f), out_dir.join(f)).map(|_| ()))
                    .map_err(|e| format!("cannot move {f} to {}: {e}", out_dir.display()))?;
            }
            return Ok(());
        }
        for line in &lines[lines.len().saturating_sub(40)..] {
            eprintln!("{line}");
        }
        Err(format!(
            "the Godot {} generator failed ({status}); its output is in {}",
            self.version,
            log_path.display()
        ))
    }
}

/// Regenerates every engine's corpus, save file and sidecar into `out_dir` (the committed
/// ones are in tests/golden/godot3).
pub fn regenerate(project: &Path, out_dir: &Path) -> Result<(), String> {
    for engine in &ENGINES {
        engine.regenerate(project, out_dir)?;
    }
    Ok(())
}

/// Where the committed corpus is.
pub fn committed(project: &Path) -> PathBuf {
    project.join("tests/golden/godot3")
}

/// Where the bundled project's suite reads the save files and sidecars (inside the
/// project, so that its exported pack holds them too).
pub fn fixtures(project: &Path) -> PathBuf {
    project.join("godot_project/fixtures/godot3")
}

/// `cargo xtask golden3`: the committed corpus regenerated, and its save files copied
/// to the bundled project's fixtures.
pub fn regenerate_committed(project: &Path) -> Result<(), String> {
    regenerate(project, &committed(project))?;
    let fixtures = fixtures(project);
    std::fs::create_dir_all(&fixtures).map_err(|e| e.to_string())?;
    for engine in &ENGINES {
        for file in &engine.files()[1..] {
            std::fs::copy(committed(project).join(file), fixtures.join(file))
                .map_err(|e| format!("cannot copy {file} to {}: {e}", fixtures.display()))?;
        }
    }
    Ok(())
}

/// Whether the live engines still make the committed corpus, byte for byte, and the
/// fixtures are its save files. Prints each difference.
pub fn up_to_date(project: &Path) -> Result<bool, String> {
    let fresh = project.join("target/golden3-regenerated");
    let _ = std::fs::remove_dir_all(&fresh);
    regenerate(project, &fresh)?;
    let mut same = true;
    for engine in &ENGINES {
        let files = engine.files();
        let pairs = files
            .iter()
            .map(|f| (fresh.join(f), committed(project).join(f)))
            .chain(
                files[1..]
                    .iter()
                    .map(|f| (committed(project).join(f), fixtures(project).join(f))),
            );
        for (a, b) in pairs {
            if std::fs::read(&a).ok() != std::fs::read(&b).ok() {
                eprintln!("{} differs from {}", a.display(), b.display());
                same = false;
            }
        }
    }
    Ok(same)
}
