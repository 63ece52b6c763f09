//! The binary at its edges: bad bytes and huge lines in a `--boards` stream, a closed stdout, a
//! full one, output targets that are not regular files, clap's errors, the judge's counts and
//! the exit codes the README's table gives. Linux: `/dev/full`, `/proc/self/fd`, `mkfifo`.

use crate::statespace;

#[test]
fn judge_hdu3278_counts_past_the_cases_given_are_one_error() {
    let case = "BWGBWG BWGBWG BWGBWG BWGBWG\n";
    for t in ["18446744073709551615", "9223372036854775808", "2"] {
        statespace()
            .args(["judge", "hdu3278", "--no-cache"])
            .write_stdin(format!("{t}\n{case}"))
            .assert()
            .code(2)
            .stdout("")
            .stderr(format!(
                "statespace: error: <stdin>:2: case 2, row 1: missing: the input ends before \
                 case 2 of {t}\n"
            ));
    }
}
