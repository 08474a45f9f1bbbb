package core

// Bypass attempts on the path axis (issue 15, classes 2, 5 and 15; see
// bypass_test.go for judging). The world's /data and /host/team hold
// protected files under movable directories:
//
//   - /data/team/internal/key, /data/keys/a.key (hidden by /data/**/*.key),
//     /data/vault2/material (a hidden region whose pub/ is shown) and
//     /host/team/private/key are hidden;
//   - /data/team/deny.txt and /host/team/deny.txt are denied;
//   - /data/listless is denied to ls alone;
//   - /data's command rules deny wc to commands working inside it.
//
// Each protected file holds the world's secret, so a twin world with other
// bytes shows any leak, and the laundering walk finds a protected file that
// a rename carried to where no rule holds it.

// bypassRenames: renames, links and copies of a protected entry or of any
// directory above one (class 2). A move that would carry protected content
// out from under its rule is refused whole; copies copy what is visible.
var bypassRenames = bypassTechnique{name: "renames, links and copies of ancestors", cases: []bypassCase{
	secretCase("mv /data/team /data/t2; cat /data/t2/internal/key /data/t2/deny.txt"),
	secretCase("mv /data/team /data/t2; grep -r . /data/t2; ls -R /data/t2"),
	secretCase("cd /data && mv team t2 && cd t2 && cat internal/key deny.txt"),
	secretCase("mv /data/team /tmp/t2; grep -r . /tmp/t2; ls -laR /tmp/t2"),
	secretCase("mv /data/team/internal /data/i; cat /data/i/key"),
	secretCase("mv /data/team/deny.txt /data/d.txt; cat /data/d.txt"),
	secretCase("mkdir /data/new; mv /data/team/deny.txt /data/new/; cat /data/new/deny.txt"),
	secretCase("mv /data/keys /data/k2; cat /data/k2/a.key; ls -la /data/k2"),
	secretCase("mv /data/keys/a.key /data/a.txt; cat /data/a.txt"),
	secretCase("mv /data/only-hidden /data/oh; ls -la /data/oh; cat /data/oh/x.key"),
	secretCase("rmdir /data/only-hidden; rm -r /data/only-hidden; ls -la /data/only-hidden"),
	secretCase("rm -rf /data/team; ls -laR /data/team; cat /data/team/internal/key"),
	secretCase("mv /data/vault2 /data/v3; cat /data/v3/material"),
	secretCase("mv /data/vault2/pub /data/p2; ls -la /data/p2 /data/vault2"),
	secretCase("mv /data/team/readme /data/team/internal; cat /data/team/internal"),
	secretCase("cp -r /data/team /data/t3; grep -r . /data/t3; cat /data/t3/internal/key"),
	secretCase("cp -a /data/team /tmp/t3; grep -r . /tmp/t3"),
	secretCase("cp -r /data/keys /tmp/k; cat /tmp/k/a.key; ls -la /tmp/k"),
	secretCase("cp -r /data/vault2 /tmp/v; grep -r . /tmp/v"),
	secretCase("ln /data/team/deny.txt /data/hard; cat /data/hard"),
	secretCase("ln /data/team/internal/key /data/hard; cat /data/hard"),
	secretCase("ln -s /data/team /tmp/t; cat /tmp/t/internal/key /tmp/t/deny.txt"),
	secretCase("ln -s /data/team/internal/key /data/k; cat /data/k"),
	secretCase("ln -s /data/team/internal /data/i; ls /data/i; cat /data/i/key"),
	secretCase("ln -s /data/vault2 /tmp/v; cat /tmp/v/material; ls /tmp/v"),
	secretCase("ln -s . /data/team/self; cat /data/team/self/internal/key"),
	secretCase("ln -s /data /tmp/d; mv /tmp/d/team /tmp/d/t2; cat /data/t2/internal/key"),
	secretCase("mv /host/team /host/t2; cat /host/t2/private/key /host/t2/deny.txt"),
	secretCase("cd /host && mv team t2; grep -r . /host/t2"),
	secretCase("mv /host/team /tmp/ht; grep -r . /tmp/ht"),
	secretCase("cp -r /host/team /tmp/ht; grep -r . /tmp/ht"),
	secretCase("ln -s /host/team /tmp/ht; cat /tmp/ht/private/key"),
	secretCase("cat /data/t2/internal/key").after("mv /data/team /data/t2"),
	secretCase("grep -r . /data/t2").after("mv /data/team /data/t2"),
}}

// bypassScopedRules: rules scoped to a command, and mount-level command
// rules, judged on the path a symlink leads to (class 5): each attempt must
// be judged exactly as the line that names the target itself. ls may not
// list /data/listless, and /data's rules deny wc to commands working there.
var bypassScopedRules = bypassTechnique{name: "symlinks and command- or mount-scoped rules", cases: []bypassCase{
	asTarget("ln -s /data/listless /tmp/s", "ls /tmp/s", "ls /data/listless", "/tmp/s", "/data/listless"),
	asTarget("ln -s /data/listless /tmp/s", "ls -la /tmp/s/", "ls -la /data/listless/", "/tmp/s", "/data/listless"),
	asTarget("ln -s /data/listless /tmp/s", "ls -d /tmp/s", "ls -d /data/listless", "/tmp/s", "/data/listless"),
	asTarget("ln -s /data/listless/f.txt /tmp/f", "ls -l /tmp/f", "ls -l /data/listless/f.txt", "/tmp/f", "/data/listless/f.txt"),
	asTarget("ln -s /data /tmp/d", "ls /tmp/d/listless", "ls /data/listless", "/tmp/d", "/data"),
	asTarget("ln -s /data /tmp/d", "cd /tmp/d/listless && ls", "cd /data/listless && ls", "/tmp/d", "/data"),
	asTarget("ln -s /data/listless /tmp/s", "cd /tmp/s && ls -la .", "cd /data/listless && ls -la .", "/tmp/s", "/data/listless"),
	asTarget("cd /data", "ls listless", "ls /data/listless", "listless", "/data/listless"),
	asTarget("ln -s /data /tmp/d", "cd /tmp/d && wc -c team/readme", "cd /data && wc -c team/readme", "/tmp/d", "/data"),
	asTarget("ln -s /data /tmp/d", "wc -c /tmp/d/team/readme", "wc -c /data/team/readme", "/tmp/d", "/data"),
	asTarget("ln -s /data/team/readme /tmp/r", "wc -l /tmp/r", "wc -l /data/team/readme", "/tmp/r", "/data/team/readme"),
	asTarget("ln -s /data/team/deny.txt /tmp/d", "cat /tmp/d", "cat /data/team/deny.txt", "/tmp/d", "/data/team/deny.txt"),
	asTarget("ln -s /data/team /tmp/t", "cat /tmp/t/deny.txt", "cat /data/team/deny.txt", "/tmp/t", "/data/team"),
	asTarget("ln -s /vault/aws.token /tmp/tok", "head -c 3 /tmp/tok", "head -c 3 /vault/aws.token", "/tmp/tok", "/vault/aws.token"),
	asTarget("ln -s /data/team/internal /tmp/i", "ls /tmp/i/key", "ls /data/team/internal/key", "/tmp/i", "/data/team/internal"),
	asTarget("ln -s /data/team/internal /tmp/i", "cd /tmp/i", "cd /data/team/internal", "/tmp/i", "/data/team/internal"),
	asTarget("ln -s /data/team/internal/key /tmp/k", "cat /tmp/k", "cat /data/team/internal/key", "/tmp/k", "/data/team/internal/key"),
	secretCase("ln -s /data/team /tmp/t; cd /tmp/t && cat deny.txt internal/key"),
	secretCase("ln -s /data/team/internal/key /tmp/k; cat < /tmp/k; echo $(</tmp/k); source /tmp/k"),
	secretCase("ln -s /data/team/internal /tmp/i; cat /tmp/i/*; test -e /tmp/i/key && echo there"),
	secretCase("ln -s /host/team/private /tmp/p; cat /tmp/p/key; ls /tmp/p"),
	secretCase("ln -s /data/team /tmp/t; grep -r . /tmp/t/; find -L /tmp/t -type f -exec cat {} +"),
}}

// bypassHiddenOrMissing: under a deny, a hidden name answers every door
// byte for byte as a name that is not there (class 15); the twin has no
// hide rule and no hidden content.
var bypassHiddenOrMissing = bypassTechnique{name: "hidden or missing under a deny", cases: []bypassCase{
	missingLikeCase("cat /vault/internal"),
	missingLikeCase("cat /vault/internal/root.key"),
	missingLikeCase("cat /vault/internal/nothere"),
	missingLikeCase("cat < /vault/internal/root.key"),
	missingLikeCase("stat /vault/internal; stat -c %h /vault"),
	missingLikeCase("ls -la /vault; ls /vault/internal"),
	missingLikeCase("test -e /vault/internal && echo yes; [ -d /vault/internal ] || echo no"),
	missingLikeCase("cd /vault/internal"),
	missingLikeCase("echo /vault/*; echo /vault/internal/*"),
	missingLikeCase("rm /vault/internal/root.key"),
	missingLikeCase("rm -r /vault/internal"),
	missingLikeCase("rmdir /vault/internal"),
	missingLikeCase("touch /vault/internal"),
	missingLikeCase("touch /vault/internal/x"),
	missingLikeCase("mkdir /vault/internal"),
	missingLikeCase("mkdir -p /vault/internal/x"),
	missingLikeCase("echo x > /vault/internal"),
	missingLikeCase("echo x > /vault/internal/new"),
	missingLikeCase("echo x >> /vault/internal/root.key"),
	missingLikeCase("mv /vault/internal /vault/moved"),
	missingLikeCase("mv /work/notes.txt /vault/internal"),
	missingLikeCase("cp /vault/internal/root.key /tmp/"),
	missingLikeCase("cp /work/notes.txt /vault/internal"),
	missingLikeCase("ln -s /work/notes.txt /vault/internal"),
	missingLikeCase("readlink -f /vault/internal/x; realpath /vault/internal"),
	missingLikeCase("du -a /vault; du -s /vault"),
	missingLikeCase("find /vault"),
	missingLikeCase("grep -r x /vault"),
	missingLikeCase("ls -la /data/team /data/keys"),
	missingLikeCase("cat /data/team/deny.txt/x; cat /data/team/internal/key"),
	missingLikeCase("stat -c '%n %h %s' /data/team /data/keys /data/vault2"),
	missingLikeCase("du -a /data/team /data/keys"),
	missingLikeCase("ls -la /host/team; stat -c '%n %h %s' /host/team"),
	missingLikeCase("cat /host/team/private/key; ls /host/team/private"),
}}
