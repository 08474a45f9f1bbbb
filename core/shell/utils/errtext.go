package utils

// ErrText renders an error as GNU prints it after "NAME: PATH: ": glibc's
// strerror wording, or a refusal's reason (G-6.2). The shell uses it for its
// own messages (redirections, cd, source), so every voice shares one table.
func ErrText(err error) string { return errText(err) }
