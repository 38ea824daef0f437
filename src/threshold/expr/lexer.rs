//! The lexer of the threshold expression language: source text to tokens with 1-based columns.

use crate::error::{Error, Result};
use std::fmt;

/// A token: a number, a name, an operator or punctuation character, or the end.
#[derive(Debug, Clone, PartialEq)]
pub(super) enum Tok {
    Num(f64),
    Name(String),
    Op(char),
    End,
}

/// Splits the source text into tokens (numbers, names, `+-*/^(),`), skipping whitespace.
pub(super) struct Lexer<'a> {
    chars: Vec<(usize, char)>,
    pos: usize,
    src: &'a str,
}

/// A token with its 1-based column (in characters).
#[derive(Debug, Clone)]
pub(super) struct Token {
    pub(super) tok: Tok,
    pub(super) col: usize,
}

/// A syntax error at a 1-based column.
pub(super) fn syntax(col: usize, msg: impl fmt::Display) -> Error {
    Error::Parse(format!("{msg} at column {col}"))
}

impl<'a> Lexer<'a> {
    pub(super) fn new(src: &'a str) -> Self {
        Lexer {
            chars: src.char_indices().collect(),
            pos: 0,
            src,
        }
    }

    fn peek_char(&self, off: usize) -> Option<char> {
        self.chars.get(self.pos + off).map(|&(_, c)| c)
    }

    pub(super) fn tokens(mut self) -> Result<Vec<Token>> {
        let mut out = Vec::new();
        loop {
            while matches!(self.peek_char(0), Some(c) if c.is_whitespace()) {
                self.pos += 1;
            }
            let col = self.pos + 1;
            let Some(c) = self.peek_char(0) else {
                out.push(Token { tok: Tok::End, col });
                return Ok(out);
            };
            if c.is_ascii_digit()
                || (c == '.' && matches!(self.peek_char(1), Some(d) if d.is_ascii_digit()))
            {
                let start = self.pos;
                while matches!(self.peek_char(0), Some(d) if d.is_ascii_digit()) {
                    self.pos += 1;
                }
                if self.peek_char(0) == Some('.') {
                    self.pos += 1;
                    while matches!(self.peek_char(0), Some(d) if d.is_ascii_digit()) {
                        self.pos += 1;
                    }
                }
                if matches!(self.peek_char(0), Some('e' | 'E')) {
                    let sign = usize::from(matches!(self.peek_char(1), Some('+' | '-')));
                    if matches!(self.peek_char(1 + sign), Some(d) if d.is_ascii_digit()) {
                        self.pos += 1 + sign;
                        while matches!(self.peek_char(0), Some(d) if d.is_ascii_digit()) {
                            self.pos += 1;
                        }
                    }
                }
                let b0 = self.chars[start].0;
                let b1 = self.chars.get(self.pos).map_or(self.src.len(), |&(b, _)| b);
                let text = &self.src[b0..b1];
                let v: f64 = text
                    .parse()
                    .map_err(|_| syntax(col, format!("malformed number '{text}'")))?;
                if !v.is_finite() {
                    return Err(syntax(col, format!("number '{text}' overflows")));
                }
                out.push(Token {
                    tok: Tok::Num(v),
                    col,
                });
            } else if c.is_ascii_alphabetic() || c == '_' {
                let mut name = String::new();
                while let Some(d) = self.peek_char(0) {
                    if d.is_ascii_alphanumeric() || d == '_' {
                        name.push(d);
                        self.pos += 1;
                    } else {
                        break;
                    }
                }
                out.push(Token {
                    tok: Tok::Name(name),
                    col,
                });
            } else if "+-*/^(),".contains(c) {
                self.pos += 1;
                out.push(Token {
                    tok: Tok::Op(c),
                    col,
                });
            } else {
                return Err(syntax(col, format!("unexpected character '{c}'")));
            }
        }
    }
}

/// How a token is named in an error message.
pub(super) fn describe(t: &Tok) -> String {
    match t {
        Tok::Num(v) => format!("number {v}"),
        Tok::Name(n) => format!("'{n}'"),
        Tok::Op(c) => format!("'{c}'"),
        Tok::End => "end of expression".into(),
    }
}
