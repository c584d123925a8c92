//! JSON values compared the way the round trips may be checked (shared by
//! the targets that `mod` it).

use serde_json::Value;

/// Equal, except that two floats may differ in their last bits: serde_json
/// (without its `float_roundtrip` feature, as ladderbot builds it) reads some
/// numbers one unit in the last place off the nearest double, its own output
/// included (fuzz/README.md, "Findings").
pub fn same_json(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Number(x), Value::Number(y)) => {
            if x.is_f64() || y.is_f64() {
                let (x, y) = (
                    x.as_f64().unwrap_or(f64::NAN),
                    y.as_f64().unwrap_or(f64::NAN),
                );
                let d = (x - y).abs();
                d <= 1e-15 * x.abs().max(y.abs()) || d <= f64::MIN_POSITIVE
            } else {
                x == y
            }
        }
        (Value::Array(x), Value::Array(y)) => {
            x.len() == y.len() && x.iter().zip(y).all(|(x, y)| same_json(x, y))
        }
        (Value::Object(x), Value::Object(y)) => {
            x.len() == y.len()
                && x.iter()
                    .all(|(k, v)| y.get(k).is_some_and(|w| same_json(v, w)))
        }
        _ => a == b,
    }
}

/// [`same_json`] on two serializable values.
pub fn same<T: serde::Serialize>(a: &T, b: &T) -> bool {
    match (serde_json::to_value(a), serde_json::to_value(b)) {
        (Ok(a), Ok(b)) => same_json(&a, &b),
        _ => false,
    }
}
