//! Record parsing and replay: arbitrary JSON text, and mutations of real records, never
//! panic; anything accepted rebuilds to exactly itself.
#![no_main]
use libfuzzer_sys::fuzz_target;
use serde_json::Value;
use yokai_septet::{GameConfig, Match, Variant};

fn mutate(v: &mut Value, bytes: &mut impl Iterator<Item = u8>) {
    let Some(b) = bytes.next() else { return };
    match v {
        Value::Object(map) if !map.is_empty() => {
            let k = map.keys().nth(b as usize % map.len()).unwrap().clone();
            if b % 17 == 0 {
                map.remove(&k);
            } else {
                mutate(map.get_mut(&k).unwrap(), bytes);
            }
        }
        Value::Array(a) if !a.is_empty() => {
            let i = b as usize % a.len();
            if b % 13 == 0 {
                a.remove(i);
            } else {
                mutate(&mut a[i], bytes);
            }
        }
        _ => {
            let r = bytes.next().unwrap_or(0);
            *v = match b % 6 {
                0 => Value::from(r as i64 - 8),
                1 => Value::Bool(r % 2 == 0),
                2 => Value::Null,
                3 => serde_json::json!(r as f64 / 2.0),
                4 => Value::from(format!("{r}")),
                _ => Value::from(r as u64 % 56),
            };
        }
    }
}

fuzz_target!(|data: &[u8]| {
    if let Ok(text) = std::str::from_utf8(data) {
        if let Ok(m) = Match::from_json(text) {
            let v: Value = serde_json::from_str(text).unwrap();
            assert_eq!(m.record().to_value(), v);
        }
    }
    if data.len() < 2 {
        return;
    }
    let v = Variant::ALL[(data[0] % 4) as usize];
    let mut m = Match::new(GameConfig::new(v, data[1] as u64).with_max_rounds(Some(2)));
    let mut k = 0u32;
    while !m.state().is_over() {
        let legal = m.state().legal_actions();
        k = k.wrapping_mul(31).wrapping_add(7);
        m.apply(legal.nth(k % legal.len()).unwrap()).unwrap();
    }
    let mut rec = m.record().to_value();
    let mut bytes = data[2..].iter().copied();
    for _ in 0..3 {
        mutate(&mut rec, &mut bytes);
    }
    if let Ok(back) = Match::from_record(&rec) {
        assert_eq!(
            back.record().to_value(),
            rec,
            "accepted records rebuild to themselves"
        );
    }
});
