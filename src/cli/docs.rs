//! `arbiter completions SHELL` and `arbiter man`: the shell's completion
//! script and the manual pages, made from the same definitions as
//! `--help` (clap_complete, clap_mangen), so they cannot drift from it.

use std::io::Write;
use std::path::{Path, PathBuf};

use clap::CommandFactory;

use crate::commands::{CLEAN, FAILURE};

#[derive(Debug, clap::Args)]
#[command(after_help = "Examples:
  arbiter completions bash > ~/.local/share/bash-completion/completions/arbiter
  arbiter completions zsh > ~/.zfunc/_arbiter
  arbiter completions fish > ~/.config/fish/completions/arbiter.fish")]
pub struct CompletionsArgs {
    /// The shell: bash, zsh, fish, elvish or powershell.
    #[arg(value_enum)]
    shell: clap_complete::Shell,
}

#[derive(Debug, clap::Args)]
#[command(after_help = "Examples:
  arbiter man | man -l -
  arbiter man --out /usr/local/share/man/man1")]
pub struct ManArgs {
    /// Write arbiter.1 and one page per subcommand (arbiter-audit.1, …)
    /// into this folder, instead of printing arbiter.1.
    #[arg(long)]
    out: Option<PathBuf>,
}

/// Print the completion script for the shell.
pub fn completions(a: CompletionsArgs, out: &mut dyn Write) -> i32 {
    let mut cmd = super::Cli::command();
    clap_complete::generate(a.shell, &mut cmd, "arbiter", out);
    CLEAN
}

/// Print arbiter.1, or write every page into `--out`.
pub fn man(a: ManArgs, out: &mut dyn Write) -> i32 {
    let cmd = super::Cli::command();
    let done = match &a.out {
        None => clap_mangen::Man::new(cmd).render(out),
        Some(dir) => write_pages(cmd, dir),
    };
    match done {
        Ok(()) => CLEAN,
        Err(e) => {
            let what = a
                .out
                .as_deref()
                .map_or("standard output".into(), |d| d.display().to_string());
            say!("arbiter man: cannot write to {what}: {e}");
            FAILURE
        }
    }
}

/// Every page of `cmd` (itself and each subcommand, named by their path:
/// arbiter-rules-fit.1) into `dir`, each written whole under a temporary
/// name and renamed.
fn write_pages(cmd: clap::Command, dir: &Path) -> std::io::Result<()> {
    std::fs::create_dir_all(dir)?;
    let mut cmd = cmd;
    cmd.build();
    let mut todo = vec![("arbiter".to_string(), cmd)];
    while let Some((name, c)) = todo.pop() {
        for s in c.get_subcommands().filter(|s| s.get_name() != "help") {
            todo.push((
                format!("{name}-{}", s.get_name()),
                s.clone().name(format!("{name}-{}", s.get_name())),
            ));
        }
        let mut page = Vec::new();
        clap_mangen::Man::new(c.clone()).render(&mut page)?;
        let path = dir.join(format!("{name}.1"));
        let tmp = dir.join(format!(".{name}.1.part"));
        std::fs::write(&tmp, page)?;
        std::fs::rename(&tmp, &path)?;
    }
    Ok(())
}
