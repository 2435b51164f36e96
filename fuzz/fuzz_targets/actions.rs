//! Arbitrary action sequences on every variant: the engine never panics, an error always
//! leaves the game identical, and every accepted game replays from its record.
#![no_main]
use libfuzzer_sys::fuzz_target;
use yokai_septet::{GameConfig, Match, Variant};

fuzz_target!(|data: &[u8]| {
    if data.len() < 9 {
        return;
    }
    let v = Variant::ALL[(data[0] % 4) as usize];
    let seed = u64::from_le_bytes(data[1..9].try_into().unwrap());
    let mut m = Match::new(GameConfig::new(v, seed).with_max_rounds(Some(3)));
    for &b in &data[9..] {
        let legal = m.state().legal_actions();
        // Half the bytes pick a legal card (to get deep into games), half are raw actions
        // (most of them illegal or out of range).
        let action: i128 = if b < 128 && !legal.is_empty() {
            legal.nth(b as u32 % legal.len()).unwrap().id() as i128
        } else {
            b as i128 - 136
        };
        let before = m.state().clone();
        let rec_len = m.record().rounds.len();
        match m.apply_action(action) {
            Ok(_) => {}
            Err(_) => {
                assert_eq!(m.state(), &before, "an error changed the state");
                assert_eq!(m.record().rounds.len(), rec_len);
            }
        }
    }
    let rec = m.record();
    let back = Match::from_record(&rec.to_value()).expect("a played game replays");
    assert_eq!(back.record(), rec);
});
