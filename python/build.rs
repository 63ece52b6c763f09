//! Tells the compiler which Python the crate is built for (`Py_LIMITED_API` for the abi3 wheel,
//! `Py_3_10` and so on), as pyo3 sees it: `capi.rs` picks its calls by these.

fn main() {
    pyo3_build_config::use_pyo3_cfgs();
}
