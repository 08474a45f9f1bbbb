package utils

// quotedVoice is the operand voice of utilities that print
// "NAME: FILE: MESSAGE" with the file quoted only when a shell would need
// it (coreutils' quotef).
func quotedVoice(name string) func(arg, msg string) string {
	return func(arg, msg string) string { return name + ": " + quoteIfNeeded(arg) + ": " + msg + "\n" }
}

// alwaysQuotedVoice is for utilities whose message quotes the file
// always (coreutils' quoteaf): "NAME: cannot ... 'FILE': MESSAGE".
func alwaysQuotedVoice(prefix string) func(arg, msg string) string {
	return func(arg, msg string) string { return prefix + quoteAlways(arg) + ": " + msg + "\n" }
}
