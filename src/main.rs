use clap::Parser;

fn main() {
    arbiter::cli::exit_on_panic();
    let cli = arbiter::cli::Cli::parse();
    std::process::exit(arbiter::cli::run(cli));
}
