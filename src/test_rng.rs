//! A deterministic sequence for the unit tests that generate their inputs:
//! a linear congruential generator (Knuth's MMIX multiplier and increment).

/// The generator's state.
pub(crate) struct Lcg(pub u64);

impl Lcg {
    /// The next state.
    pub(crate) fn step(&mut self) -> u64 {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        self.0
    }

    /// A number below `n`, from the next state's high bits.
    pub(crate) fn below(&mut self, n: usize) -> usize {
        ((self.step() >> 33) % n as u64) as usize
    }
}
