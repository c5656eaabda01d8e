//! The `sudoku-lens` command line.

mod cli;

use std::process::ExitCode;

use clap::Parser;

fn main() -> ExitCode {
    let args = cli::Cli::parse();
    // A person waits for each answer: no search runs on unseen.
    sudoku_lens::solve::set_time_limit(Some(args.time_limit).filter(|t| !t.is_zero()));
    let Some(command) = args.command else {
        return start_app();
    };
    match cli::run(command) {
        Ok(status) => status.into(),
        Err(e) => {
            eprintln!("sudoku-lens: {e}");
            cli::Status::Malformed.into()
        }
    }
}

/// With no command: the desktop app, or help where no window can open.
#[cfg(feature = "gui")]
fn start_app() -> ExitCode {
    use clap::CommandFactory;
    if !has_display() {
        let _ = cli::Cli::command().print_long_help();
        eprintln!(
            "sudoku-lens: no display for the desktop app; the commands above work without one"
        );
        return ExitCode::SUCCESS;
    }
    match sudoku_lens::app::run(Default::default()) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("sudoku-lens: {e}");
            let _ = cli::Cli::command().print_long_help();
            cli::Status::Malformed.into()
        }
    }
}

/// With no command and no app built in: the help, and why.
#[cfg(not(feature = "gui"))]
fn start_app() -> ExitCode {
    cli::print_without_app();
    ExitCode::SUCCESS
}

/// Whether a window can open: on Linux and the BSDs, an X11 or Wayland
/// display must be named; elsewhere there always is one.
#[cfg(feature = "gui")]
fn has_display() -> bool {
    if cfg!(any(
        target_os = "linux",
        target_os = "freebsd",
        target_os = "openbsd",
        target_os = "netbsd",
        target_os = "dragonfly"
    )) {
        ["DISPLAY", "WAYLAND_DISPLAY"]
            .iter()
            .any(|v| std::env::var_os(v).is_some_and(|d| !d.is_empty()))
    } else {
        true
    }
}
