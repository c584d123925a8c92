//! Splitting a bot command line into program and arguments, the simple way
//! a shell does: words separated by whitespace; `'...'` keeps everything
//! inside literally; `"..."` keeps whitespace and allows `\"` and `\\`;
//! outside quotes a backslash escapes the next character. No variables,
//! globs or redirections.

/// The words of `cmd`, or why it cannot be split (unclosed quote, empty).
pub fn split_command(cmd: &str) -> Result<Vec<String>, String> {
    let mut words = Vec::new();
    let mut word = String::new();
    let mut in_word = false;
    let mut chars = cmd.chars();
    while let Some(c) = chars.next() {
        match c {
            c if c.is_whitespace() => {
                if in_word {
                    words.push(std::mem::take(&mut word));
                    in_word = false;
                }
            }
            '\'' => {
                in_word = true;
                loop {
                    match chars.next() {
                        Some('\'') => break,
                        Some(c) => word.push(c),
                        None => return Err(format!("unclosed ' in command '{cmd}'")),
                    }
                }
            }
            '"' => {
                in_word = true;
                loop {
                    match chars.next() {
                        Some('"') => break,
                        Some('\\') => match chars.next() {
                            Some(c @ ('"' | '\\')) => word.push(c),
                            Some(c) => {
                                word.push('\\');
                                word.push(c);
                            }
                            None => return Err(format!("unclosed \" in command '{cmd}'")),
                        },
                        Some(c) => word.push(c),
                        None => return Err(format!("unclosed \" in command '{cmd}'")),
                    }
                }
            }
            '\\' => {
                in_word = true;
                match chars.next() {
                    Some(c) => word.push(c),
                    None => return Err(format!("trailing \\ in command '{cmd}'")),
                }
            }
            c => {
                in_word = true;
                word.push(c);
            }
        }
    }
    if in_word {
        words.push(word);
    }
    if words.is_empty() {
        return Err("empty bot command".into());
    }
    Ok(words)
}

/// Checks that `program` (a command's first word) names a program that can
/// be started: a path (any word with a `/`) to an executable file, or a
/// name found on `PATH`, as `execvp` looks it up. The error says which.
pub fn check_program(program: &str) -> Result<(), String> {
    fn executable(p: &std::path::Path) -> bool {
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            p.metadata()
                .is_ok_and(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
        }
        #[cfg(not(unix))]
        {
            p.is_file()
        }
    }
    if program.contains('/') {
        let p = std::path::Path::new(program);
        return if executable(p) {
            Ok(())
        } else if p.is_file() {
            Err(format!("{program} is not executable"))
        } else {
            Err(format!("no program {program} (no such file)"))
        };
    }
    let path = std::env::var_os("PATH").unwrap_or_default();
    if std::env::split_paths(&path).any(|d| executable(&d.join(program))) {
        Ok(())
    } else {
        Err(format!("no program {program} on PATH"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn programs_are_found_by_path_or_on_path() {
        assert!(check_program("sh").is_ok());
        assert!(check_program("/bin/sh").is_ok());
        let e = check_program("nonexistent-binary-xyz").unwrap_err();
        assert!(e.contains("on PATH"), "{e}");
        let e = check_program("./nonexistent/bot").unwrap_err();
        assert!(e.contains("no such file"), "{e}");
    }

    #[test]
    fn words_quotes_and_escapes() {
        let s = |c: &str| split_command(c).unwrap();
        assert_eq!(s("a b  c"), ["a", "b", "c"]);
        assert_eq!(
            s("python3 'my bot.py' --name \"x \\\"y\\\"\""),
            ["python3", "my bot.py", "--name", "x \"y\""]
        );
        assert_eq!(s("a\\ b c''d \"\""), ["a b", "cd", ""]);
        assert_eq!(s("  lone  "), ["lone"]);
        for bad in ["", "   ", "a 'b", "a \"b", "a \\"] {
            assert!(split_command(bad).is_err(), "{bad:?}");
        }
    }
}
