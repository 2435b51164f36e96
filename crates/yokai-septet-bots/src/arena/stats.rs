//! The statistics of arena reports: Wilson intervals and Elo differences.

/// The Elo difference that makes one player's per-seat win rate `ratio` times another's
/// (with two entries and one seat each, the logistic Elo of a win rate `p`:
/// `400·log10(p / (1 − p))`).
pub fn elo_of_ratio(per_seat: f64, others_per_seat: f64) -> f64 {
    400.0 * (per_seat / others_per_seat).log10()
}

/// Wilson score interval at 95% for `p` observed over `n` trials.
pub fn wilson95(p: f64, n: f64) -> [f64; 2] {
    if n == 0.0 {
        return [0.0, 1.0];
    }
    let z = 1.96f64;
    let z2 = z * z;
    let denom = 1.0 + z2 / n;
    let center = (p + z2 / (2.0 * n)) / denom;
    let half = z * (p * (1.0 - p) / n + z2 / (4.0 * n * n)).sqrt() / denom;
    [(center - half).max(0.0), (center + half).min(1.0)]
}
