//! Build script: records how the binary was built, for the `compiler` command.

use std::process::Command;

fn main() {
    let rustc = std::env::var("RUSTC").unwrap_or_else(|_| "rustc".to_string());
    let version = Command::new(&rustc)
        .arg("--version")
        .output()
        .ok()
        .and_then(|o| String::from_utf8(o.stdout).ok())
        .map_or_else(|| "an unknown rustc".to_string(), |v| v.trim().to_string());
    let var = |name: &str| std::env::var(name).unwrap_or_else(|_| "unknown".to_string());
    println!("cargo:rustc-env=CHARIOT_RUSTC={version}");
    println!("cargo:rustc-env=CHARIOT_TARGET={}", var("TARGET"));
    println!("cargo:rustc-env=CHARIOT_PROFILE={}", var("PROFILE"));
    println!("cargo:rerun-if-changed=build.rs");
}
