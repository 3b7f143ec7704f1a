//! The texts the comment parsers' tests run on: numbers and near-numbers,
//! and texts generated from an alphabet.

/// Texts of numbers and near-numbers: every length of digits up to
/// 21, with and without a sign, a point at each place, and junk.
pub(super) fn number_texts() -> Vec<String> {
    let mut out: Vec<String> = [
        "",
        "-",
        "+",
        ".",
        "-.",
        "0",
        "-0",
        "+0",
        "00",
        "1.",
        ".5",
        "1.2.3",
        "1e5",
        "inf",
        "NaN",
        " 1",
        "1 ",
        "1_0",
        "٣",
        "4294967295",
        "4294967296",
        "2147483647",
        "2147483648",
        "-2147483648",
        "-2147483649",
        "9223372036854775807",
        "9223372036854775808",
        "-9223372036854775808",
        "18446744073709551615",
        "18446744073709551616",
        "999999999999999",
        "9999999999999999",
        "0.1",
        "0.3",
        "99.9",
        "100.0",
        "12.345678901234",
        "1234567890.12345",
    ]
    .iter()
    .map(|s| s.to_string())
    .collect();
    let digits = "98765432109876543210987";
    for n in 1..=21 {
        let d = &digits[..n];
        for sign in ["", "-", "+"] {
            out.push(format!("{sign}{d}"));
            for p in 0..=n {
                out.push(format!("{sign}{}.{}", &d[..p], &d[p..]));
            }
        }
    }
    out
}

/// Texts of up to `max` characters from `alphabet`, in the orders a
/// small generator gives.
pub(super) fn generated(alphabet: &str, max: usize, n: usize) -> Vec<String> {
    let chars: Vec<char> = alphabet.chars().collect();
    let mut rng = crate::test_rng::Lcg(0x9E37_79B9_7F4A_7C15);
    (0..n)
        .map(|_| {
            let len = rng.below(max + 1);
            (0..len).map(|_| chars[rng.below(chars.len())]).collect()
        })
        .collect()
}
