//! The `sudoku-lens` command line.

mod cli;

use std::process::ExitCode;

use clap::{CommandFactory, Parser};

fn main() -> ExitCode {
    let args = cli::Cli::parse();
    let Some(command) = args.command else {
        // With no command: the desktop app will open here; for now, help.
        let _ = cli::Cli::command().print_long_help();
        return ExitCode::SUCCESS;
    };
    match cli::run(command) {
        Ok(status) => status.into(),
        Err(e) => {
            eprintln!("sudoku-lens: {e}");
            cli::Status::Malformed.into()
        }
    }
}
