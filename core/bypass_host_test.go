package core

// Bypass attempts on the host behind the workspace: the /host mount is a
// real directory with links that lead outside it (seeded by the operator or
// made by the agent), and nothing outside the mounts may ever be reached
// (G-5.6, G-12.1). See bypass_test.go for judging; bypassHostRoot stands for
// the host directory that holds the mount's directory ("mount") and its
// neighbour ("outside/secret.txt").

var bypassHostEscapes = bypassTechnique{name: "host mount escapes", cases: []bypassCase{
	hostCase("cat /host/escape-rel"),
	hostCase("cat /host/escape-abs"),
	hostCase("cat /host/escape-dir/secret.txt"),
	hostCase("ls /host/escape-dir"),
	hostCase("cat /host/sub/escape-deep"),
	hostCase("cat /host/etc-passwd"),
	hostCase("cat /host/out-and-back"),
	hostCase("cd /host/escape-dir && cat secret.txt"),
	hostCase("cat < /host/escape-rel"),
	hostCase(`echo "$(</host/escape-abs)"`),
	hostCase("cp /host/escape-rel /tmp/x; cat /tmp/x"),
	hostCase("cp -rL /host /tmp/h; cat /tmp/h/escape-rel"),
	hostCase("cp -r /host /tmp/h; cat /tmp/h/escape-rel"),
	hostCase("grep -R . /host"),
	hostCase("find -L /host -type f"),
	hostCase(`find -L /host -name secret.txt -exec cat {} \;`),
	hostCase("ls -L /host"),
	hostCase("test -e /host/escape-rel && echo reachable"),
	hostCase("stat -L -c %s /host/escape-abs"),
	hostCase("readlink /host/escape-abs"),
	hostCase("readlink -f /host/escape-rel"),
	hostCase("realpath /host/escape-dir"),
	hostCase("ln -s ../outside/secret.txt /host/mine; cat /host/mine"),
	hostCase("ln -s ../../../../../../../../etc/passwd /host/p; cat /host/p"),
	hostCase("ln -s /etc/passwd /host/p; cat /host/p"),
	hostCase("ln -s " + bypassHostRoot + "/outside/secret.txt /host/abs; cat /host/abs"),
	hostCase("mkdir /host/d; ln -s ../../outside /host/d/o; cat /host/d/o/secret.txt"),
	hostCase("ln -s .. /host/up; cat /host/up/outside/secret.txt"),
	hostCase("ln -s .. /host/up; ls /host/up"),
	hostCase("cd /host && cat ../outside/secret.txt"),
	hostCase("cat /host/../outside/secret.txt"),
	hostCase("cat " + bypassHostRoot + "/outside/secret.txt"),
	hostCase("ls " + bypassHostRoot),
	hostCase("mv /host/escape-rel /tmp/moved; cat /tmp/moved"),
	hostCase("ln /host/escape-rel /host/hard; cat /host/hard"),
	hostCase("tee /host/escape-rel <<< overwritten; cat " + bypassHostRoot + "/outside/secret.txt"),
	hostCase("echo overwritten > /host/escape-abs"),
	hostCase("cat /etc/passwd"),
	hostCase("ls /proc/self"),
	hostCase("cat /proc/self/environ"),
	hostCase("cd /etc && ls"),
	hostCase("source /etc/passwd"),
	hostCase("pwd -P").after("cd /host/escape-dir"),
	hostCase("cd /host; pwd -P; ls -a"),
}}
