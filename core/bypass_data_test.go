package core

// Bypass attempts through the data utilities (dd, basenc, fmt, pr,
// csplit, zip, bzip2): each reads and writes only through the op door, so
// a denied file is refused, a hidden one is missing, and nothing under
// /ro changes (see bypass_test.go).
var bypassDataUtilities = bypassTechnique{name: "dd/basenc/fmt/pr/csplit/zip/bzip2", cases: []bypassCase{
	secretCase("dd if=/vault/aws.token"),
	secretCase("dd if=/vault/aws.token of=/tmp/c; cat /tmp/c"),
	secretCase("cd /vault && dd if=aws.token status=none"),
	secretCase("dd < /vault/aws.token"),
	secretCase("basenc --base16 /vault/aws.token"),
	secretCase("fmt /vault/aws.token"),
	secretCase("fmt -p AKIA /vault/aws.token"),
	secretCase("csplit /vault/aws.token 1"),
	secretCase("csplit -f /tmp/p /vault/aws.token %x%; cat /tmp/p*"),
	hiddenCase("dd if=/vault/internal/root.key"),
	hiddenCase("fmt /vault/internal/root.key"),
	hiddenCase("dd if=/work/notes.txt of=/vault/internal/root.key"),
	hiddenCase("basenc --z85 /vault/internal/root.key"),
	hiddenCase("csplit /vault/internal/root.key 1"),
	hiddenCase("csplit -f /vault/internal/x /work/notes.txt 2"),
	hiddenCase("cd /vault/internal && csplit /work/notes.txt 2"),
	missingLikeCase("csplit -f /vault/internal/x /work/notes.txt 2; echo $?"),
	missingLikeCase("csplit -k -f /vault/internal/ /work/notes.txt /a/ {*}; echo $?"),
	roCase("dd if=/work/notes.txt of=/ro/frozen.txt"),
	roCase("dd if=/work/notes.txt of=/ro/frozen.txt conv=notrunc seek=1"),
	roCase("dd if=/work/notes.txt of=/ro/new"),
	roCase("cd /ro && dd if=/work/notes.txt of=frozen.txt"),
	roCase("csplit -f /ro/x /work/notes.txt 2"),
	roCase("cd /ro && csplit -k /work/notes.txt 2"),
	roCase("csplit -f /ro/frozen -b .txt%.0d /work/notes.txt 1"),
}}
