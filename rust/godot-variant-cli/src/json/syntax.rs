//! JSON text to a tree that keeps what the value mapping needs and common readers drop:
//! an object's keys in their order (a Dictionary's order), numbers as written (an int is
//! a number without `.` or exponent; a float's digits are read once, at the precision of
//! where it goes), and any depth up to [`MAX_DEPTH`] on any stack.

use godot_variant_codec::{StackRoom, MAX_RECURSION_DEPTH};

/// The deepest JSON read: each level of a Godot value takes up to three (a Dictionary of
/// pairs: its object, its array of pairs, a pair), and the line's object one more.
pub const MAX_DEPTH: usize = 3 * (MAX_RECURSION_DEPTH + 1) + 1;

/// A JSON value.
#[derive(Debug, Clone, PartialEq)]
pub enum Json {
    Null,
    Bool(bool),
    /// A number's text, checked to be a JSON number.
    Number(String),
    String(String),
    Array(Vec<Json>),
    /// The members in order, repeated keys kept.
    Object(Vec<(String, Json)>),
}

impl Json {
    /// What kind of JSON this is, for messages.
    pub fn kind(&self) -> &'static str {
        match self {
            Json::Null => "null",
            Json::Bool(_) => "a bool",
            Json::Number(_) => "a number",
            Json::String(_) => "a string",
            Json::Array(_) => "an array",
            Json::Object(_) => "an object",
        }
    }
}

/// The JSON value `text` holds (nothing but whitespace around it); the error names the
/// column (in characters, from 1) where the text went wrong.
pub fn parse(text: &str) -> Result<Json, String> {
    let mut p = Parser { text, at: 0 };
    let result = p.value(0).and_then(|json| {
        p.space();
        match p.peek() {
            None => Ok(json),
            Some(_) => Err("text after the JSON value".to_owned()),
        }
    });
    result.map_err(|e| {
        let column = text[..p.at.min(text.len())].chars().count() + 1;
        format!("column {column}: {e}")
    })
}

struct Parser<'a> {
    text: &'a str,
    /// Byte offset of the next character.
    at: usize,
}

impl Parser<'_> {
    fn peek(&self) -> Option<u8> {
        self.text.as_bytes().get(self.at).copied()
    }

    fn space(&mut self) {
        while matches!(self.peek(), Some(b' ' | b'\t' | b'\n' | b'\r')) {
            self.at += 1;
        }
    }

    fn expect(&mut self, c: u8) -> Result<(), String> {
        self.space();
        if self.peek() == Some(c) {
            self.at += 1;
            Ok(())
        } else {
            Err(format!("expected '{}', found {}", c as char, self.found()))
        }
    }

    fn found(&self) -> String {
        match self.text[self.at..].chars().next() {
            None => "the end of the line".to_owned(),
            Some(c) => format!("'{c}'"),
        }
    }

    fn value(&mut self, depth: usize) -> Result<Json, String> {
        if depth > MAX_DEPTH {
            return Err(format!("nested deeper than {MAX_DEPTH}"));
        }
        self.space();
        match self.peek() {
            Some(b'{') => StackRoom::CODEC.run(|| self.object(depth)),
            Some(b'[') => StackRoom::CODEC.run(|| self.array(depth)),
            Some(b'"') => self.string().map(Json::String),
            Some(b'-' | b'0'..=b'9') => self.number(),
            _ => {
                for (word, json) in [
                    ("null", Json::Null),
                    ("true", Json::Bool(true)),
                    ("false", Json::Bool(false)),
                ] {
                    if self.text[self.at..].starts_with(word) {
                        self.at += word.len();
                        return Ok(json);
                    }
                }
                Err(format!("expected a JSON value, found {}", self.found()))
            }
        }
    }

    fn array(&mut self, depth: usize) -> Result<Json, String> {
        self.at += 1;
        let mut items = Vec::new();
        self.space();
        if self.peek() == Some(b']') {
            self.at += 1;
            return Ok(Json::Array(items));
        }
        loop {
            items.push(self.value(depth + 1)?);
            self.space();
            match self.peek() {
                Some(b',') => self.at += 1,
                Some(b']') => {
                    self.at += 1;
                    return Ok(Json::Array(items));
                }
                _ => return Err(format!("expected ',' or ']', found {}", self.found())),
            }
        }
    }

    fn object(&mut self, depth: usize) -> Result<Json, String> {
        self.at += 1;
        let mut members = Vec::new();
        self.space();
        if self.peek() == Some(b'}') {
            self.at += 1;
            return Ok(Json::Object(members));
        }
        loop {
            self.space();
            if self.peek() != Some(b'"') {
                return Err(format!("expected a key (a string), found {}", self.found()));
            }
            let key = self.string()?;
            self.expect(b':')?;
            members.push((key, self.value(depth + 1)?));
            self.space();
            match self.peek() {
                Some(b',') => self.at += 1,
                Some(b'}') => {
                    self.at += 1;
                    return Ok(Json::Object(members));
                }
                _ => return Err(format!("expected ',' or '}}', found {}", self.found())),
            }
        }
    }

    fn number(&mut self) -> Result<Json, String> {
        let start = self.at;
        let digits = |p: &mut Self| {
            let from = p.at;
            while matches!(p.peek(), Some(b'0'..=b'9')) {
                p.at += 1;
            }
            p.at > from
        };
        if self.peek() == Some(b'-') {
            self.at += 1;
        }
        let int_start = self.at;
        if !digits(self) {
            return Err(format!("expected a digit, found {}", self.found()));
        }
        if self.text.as_bytes()[int_start] == b'0' && self.at - int_start > 1 {
            self.at = int_start + 1;
            return Err("a number with a leading zero".to_owned());
        }
        if self.peek() == Some(b'.') {
            self.at += 1;
            if !digits(self) {
                return Err(format!(
                    "expected a digit after '.', found {}",
                    self.found()
                ));
            }
        }
        if matches!(self.peek(), Some(b'e' | b'E')) {
            self.at += 1;
            if matches!(self.peek(), Some(b'+' | b'-')) {
                self.at += 1;
            }
            if !digits(self) {
                return Err(format!("expected an exponent, found {}", self.found()));
            }
        }
        Ok(Json::Number(self.text[start..self.at].to_owned()))
    }

    fn string(&mut self) -> Result<String, String> {
        self.at += 1;
        let mut out = String::new();
        loop {
            let rest = &self.text[self.at..];
            let plain = rest
                .find(|c: char| c == '"' || c == '\\' || c < ' ')
                .ok_or("a string without its closing '\"'")?;
            out.push_str(&rest[..plain]);
            self.at += plain;
            match self.peek() {
                Some(b'"') => {
                    self.at += 1;
                    return Ok(out);
                }
                Some(b'\\') => {
                    self.at += 1;
                    out.push(self.escape()?);
                }
                _ => return Err("a control character in a string (write it as \\u…)".into()),
            }
        }
    }

    /// The character of the escape after a backslash.
    fn escape(&mut self) -> Result<char, String> {
        let c = self.peek().ok_or("a string without its closing '\"'")?;
        self.at += 1;
        Ok(match c {
            b'"' => '"',
            b'\\' => '\\',
            b'/' => '/',
            b'b' => '\u{8}',
            b'f' => '\u{c}',
            b'n' => '\n',
            b'r' => '\r',
            b't' => '\t',
            b'u' => {
                let high = self.hex4()?;
                let code = if (0xD800..0xDC00).contains(&high) {
                    if !self.text[self.at..].starts_with("\\u") {
                        return Err("a lone UTF-16 surrogate in a \\u escape".into());
                    }
                    self.at += 2;
                    let low = self.hex4()?;
                    if !(0xDC00..0xE000).contains(&low) {
                        return Err("a lone UTF-16 surrogate in a \\u escape".into());
                    }
                    0x10000 + ((high - 0xD800) << 10) + (low - 0xDC00)
                } else {
                    high
                };
                char::from_u32(code).ok_or("a lone UTF-16 surrogate in a \\u escape")?
            }
            _ => {
                self.at -= 1;
                return Err(format!(
                    "an unknown escape '\\{}'",
                    self.found().trim_matches('\'')
                ));
            }
        })
    }

    fn hex4(&mut self) -> Result<u32, String> {
        let digits = self
            .text
            .get(self.at..self.at + 4)
            .filter(|d| d.bytes().all(|b| b.is_ascii_hexdigit()))
            .ok_or("expected 4 hex digits after \\u")?;
        self.at += 4;
        Ok(u32::from_str_radix(digits, 16).expect("checked hex digits"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn n(s: &str) -> Json {
        Json::Number(s.into())
    }

    #[test]
    fn values_keep_their_order_and_numbers_their_text() {
        let json =
            parse(r#" {"b": [1, -0.5e3, true, null], "a": "x\u00e9\ud83d\ude00\n", "b": {}} "#);
        assert_eq!(
            json.unwrap(),
            Json::Object(vec![
                (
                    "b".into(),
                    Json::Array(vec![n("1"), n("-0.5e3"), Json::Bool(true), Json::Null])
                ),
                ("a".into(), Json::String("xé😀\n".into())),
                ("b".into(), Json::Object(vec![])),
            ])
        );
    }

    #[test]
    fn errors_name_the_column_and_what_was_wrong() {
        for (text, error) in [
            (
                "[1, 2",
                "column 6: expected ',' or ']', found the end of the line",
            ),
            ("{\"a\" 1}", "column 6: expected ':', found '1'"),
            ("01", "column 2: a number with a leading zero"),
            ("[1.]", "column 4: expected a digit after '.', found ']'"),
            (
                "\"\\ud800\"",
                "column 8: a lone UTF-16 surrogate in a \\u escape",
            ),
            ("\"a", "column 2: a string without its closing '\"'"),
            ("tru", "column 1: expected a JSON value, found 't'"),
            ("1 2", "column 3: text after the JSON value"),
            ("\"\\x\"", "column 3: an unknown escape '\\x'"),
        ] {
            assert_eq!(parse(text), Err(error.to_owned()), "{text}");
        }
    }

    #[test]
    fn depth_is_bounded_but_any_depth_below_is_read() {
        let deep = |n: usize| format!("{}{}", "[".repeat(n), "]".repeat(n));
        assert!(parse(&deep(MAX_DEPTH + 1)).is_ok());
        let e = parse(&deep(MAX_DEPTH + 2)).unwrap_err();
        assert!(e.contains("nested deeper than"), "{e}");
    }
}
