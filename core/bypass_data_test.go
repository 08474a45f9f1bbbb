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
	hiddenCase("dd if=/vault/internal/root.key"),
	hiddenCase("fmt /vault/internal/root.key"),
	hiddenCase("dd if=/work/notes.txt of=/vault/internal/root.key"),
	hiddenCase("basenc --z85 /vault/internal/root.key"),
	roCase("dd if=/work/notes.txt of=/ro/frozen.txt"),
	roCase("dd if=/work/notes.txt of=/ro/frozen.txt conv=notrunc seek=1"),
	roCase("dd if=/work/notes.txt of=/ro/new"),
	roCase("cd /ro && dd if=/work/notes.txt of=frozen.txt"),
}}
