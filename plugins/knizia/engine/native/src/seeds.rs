//! `samurai.seeds.derive_seed`: a well-mixed 63-bit seed for item `index` of a run (SplitMix64), so that a
//! whole run of games can be seeded natively exactly as the Python runner seeds it.

/// `derive_seed(seed, index)` for a seed below 2**64 (every seed a run accepts).
pub fn derive_seed(seed: u64, index: u64) -> u64 {
    let mut z = seed
        .wrapping_mul(0x9E37_79B9_7F4A_7C15)
        .wrapping_add(index.wrapping_add(1).wrapping_mul(0xBF58_476D_1CE4_E5B9));
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    (z ^ (z >> 31)) >> 1
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn derived_seeds_are_63_bits_and_differ_by_index() {
        let seeds: Vec<u64> = (0..100).map(|i| derive_seed(7, i)).collect();
        assert!(seeds.iter().all(|&s| s < 1 << 63));
        let mut distinct = seeds.clone();
        distinct.sort_unstable();
        distinct.dedup();
        assert_eq!(distinct.len(), seeds.len());
    }
}
