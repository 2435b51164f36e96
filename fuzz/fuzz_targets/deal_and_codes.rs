//! Card-code parsing and explicit deals: never panic; what parses prints back to itself.
#![no_main]
use libfuzzer_sys::fuzz_target;
use yokai_septet::{Card, CardSet, Deal, Variant};

fuzz_target!(|data: &[u8]| {
    if let Ok(text) = std::str::from_utf8(data) {
        if let Ok(c) = text.parse::<Card>() {
            assert_eq!(c.to_string().parse::<Card>().unwrap(), c);
        }
        if let Ok(s) = text.parse::<CardSet>() {
            assert_eq!(s.to_string().parse::<CardSet>().unwrap(), s);
        }
    }
    if data.is_empty() {
        return;
    }
    let v = Variant::ALL[(data[0] % 4) as usize];
    let ids: Vec<i64> = data[1..].iter().map(|&b| b as i64 - 4).collect();
    let n = v.num_players();
    let h = v.hand_size();
    let hands: Vec<Vec<i64>> = (0..n)
        .map(|p| ids.iter().skip(p * h).take(h).copied().collect())
        .collect();
    let trump = ids.get(n * h).copied();
    if let Ok(d) = Deal::from_ids(v, &hands, trump) {
        let all = d.hands.iter().fold(CardSet::EMPTY, |a, &b| a.union(b));
        assert_eq!(
            all.len() as usize + d.trump_card.is_some() as usize,
            v.deck_size()
        );
    }
});
