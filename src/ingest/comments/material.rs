//! TCEC's material balance `mb=+0-1+0+0+0`: White minus Black, in pawns,
//! knights, bishops, rooks and queens.

use serde::Serialize;

/// Material balance `mb=+P+N+B+R+Q`, White minus Black.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Material {
    pub pawns: i32,
    pub knights: i32,
    pub bishops: i32,
    pub rooks: i32,
    pub queens: i32,
}

/// A text that is not five signed counts (`+0-1+0+0+0`), as found.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("expected five signed counts like +0-1+0+0+0, found {text:?}")]
pub struct MaterialError {
    pub text: String,
}

impl Material {
    /// `+0-1+0+0+0`: five signs each with one digit, as [`Material::parse`]
    /// reads them; `None` for any other form.
    fn five_digits(b: &[u8]) -> Option<Material> {
        if b.len() != 10 {
            return None;
        }
        let pairs: &[[u8; 2]; 5] = b.as_chunks::<2>().0.try_into().ok()?;
        let mut vals = [0i32; 5];
        for (v, &[sign, digit]) in vals.iter_mut().zip(pairs) {
            if !digit.is_ascii_digit() {
                return None;
            }
            let d = i32::from(digit - b'0');
            *v = match sign {
                b'+' => d,
                b'-' => -d,
                _ => return None,
            };
        }
        let [pawns, knights, bishops, rooks, queens] = vals;
        Some(Material {
            pawns,
            knights,
            bishops,
            rooks,
            queens,
        })
    }

    pub(super) fn parse(s: &str) -> Result<Material, MaterialError> {
        // nearly always five one-digit counts: read in place
        if let Some(m) = Material::five_digits(s.as_bytes()) {
            return Ok(m);
        }
        let err = || MaterialError {
            text: s.to_string(),
        };
        let mut vals = [0i32; 5];
        let mut n = 0;
        let b = s.as_bytes();
        let mut i = 0;
        while i < b.len() {
            let neg = match b[i] {
                b'+' => false,
                b'-' => true,
                _ => return Err(err()),
            };
            i += 1;
            let start = i;
            while i < b.len() && b[i].is_ascii_digit() {
                i += 1;
            }
            // up to 9 digits fit an i32; longer ones (leading zeros, or
            // too large) go through `str::parse`
            let v: i32 = if (1..=9).contains(&(i - start)) {
                b[start..i]
                    .iter()
                    .fold(0, |v, &c| v * 10 + i32::from(c - b'0'))
            } else {
                s[start..i].parse().map_err(|_| err())?
            };
            if n == 5 {
                return Err(err());
            }
            vals[n] = if neg { -v } else { v };
            n += 1;
        }
        if n != 5 {
            return Err(err());
        }
        let [pawns, knights, bishops, rooks, queens] = vals;
        Ok(Material {
            pawns,
            knights,
            bishops,
            rooks,
            queens,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_fast_material_is_str_parse() {
        for s in [
            "+0+0+0+0+0",
            "+0-1+0+0+0",
            "-8+2-1+0+1",
            "+123456789+0+0+0+0",
            "+1234567890+0+0+0+0",
            "+0000000001+0+0+0+0",
            "+9999999999+0+0+0+0",
            "+0+0+0+0",
            "+0+0+0+0+0+0",
            "+0+0++0+0",
            "0+0+0+0+0",
            "+0+0+0+0+",
            "+0+0+0+0++",
            "+0+0+0+0-9",
            "+0+0+0+0+a",
            "*0+0+0+0+0",
            "+0+0+0+00+",
            "+0+0+0+0+\u{e9}",
        ] {
            let slow = |s: &str| -> Option<[i32; 5]> {
                let mut v = Vec::new();
                let mut rest = s;
                while !rest.is_empty() {
                    let neg = match rest.as_bytes()[0] {
                        b'+' => false,
                        b'-' => true,
                        _ => return None,
                    };
                    let d = rest[1..].bytes().take_while(u8::is_ascii_digit).count();
                    let n: i32 = rest[1..1 + d].parse().ok()?;
                    v.push(if neg { -n } else { n });
                    rest = &rest[1 + d..];
                }
                v.try_into().ok()
            };
            let ours = Material::parse(s)
                .ok()
                .map(|m| [m.pawns, m.knights, m.bishops, m.rooks, m.queens]);
            assert_eq!(ours, slow(s), "{s:?}");
        }
    }
}
