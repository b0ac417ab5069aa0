//! The `solved` binary, run as a user would.

mod dodgem;
mod errors;
mod util;
