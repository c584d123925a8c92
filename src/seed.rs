//! Reproducible seeds: every random stream of a match or a server session
//! (start positions, each side's agent) is derived from one seed.

fn splitmix64(mut z: u64) -> u64 {
    z = z.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// A seed for `stream` (0: start position, 1: side A, 2: side B) of game
/// `index` of the match with seed `seed`.
pub fn derive_seed(seed: u64, index: u64, stream: u64) -> u64 {
    splitmix64(splitmix64(seed) ^ (index << 2) ^ stream)
}
