// The policy program of the `agent` profile, in JavaScript: the twin
// of guard.star, and the two must judge every line alike.

// Hosts curl and wget may reach.
var ALLOWED_HOSTS = ["pypi.org", "proxy.golang.org"];

// Options of curl and wget whose next word is a value, not a URL.
var VALUE_OPTIONS = ["-o", "-O", "-d", "-H", "-X", "-u", "-A", "-e", "--output", "--data", "--header", "--request", "--user"];

// Writes under this directory are refused while the incident lasts.
var FROZEN = "/repo/config/";

// The host a URL (or a bare curl operand) names.
function hostOf(url) {
  var i = url.indexOf("://");
  if (i >= 0) {
    url = url.slice(i + 3);
  }
  ["/", ":", "?", "#"].forEach(function (sep) {
    var j = url.indexOf(sep);
    if (j >= 0) {
      url = url.slice(0, j);
    }
  });
  return url;
}

// The operands of curl or wget: every word that is not an option or an
// option's value.
function urlsOf(argv) {
  var urls = [];
  var skip = false;
  argv.slice(1).forEach(function (word) {
    if (skip) {
      skip = false;
    } else if (VALUE_OPTIONS.indexOf(word) >= 0) {
      skip = true;
    } else if (word.charAt(0) !== "-") {
      urls.push(word);
    }
  });
  return urls;
}

function preCommand(ctx) {
  if (ctx.command === "curl" || ctx.command === "wget") {
    var urls = urlsOf(ctx.argv);
    for (var i = 0; i < urls.length; i++) {
      var host = hostOf(urls[i]);
      if (ALLOWED_HOSTS.indexOf(host) < 0) {
        return {deny: ctx.command + " may only reach " + ALLOWED_HOSTS.join(" and ") + ", not " + host};
      }
    }
  }
  // Read what the line names: something that looks like an AWS access key
  // goes past a human first.
  for (var k = 0; k < ctx.paths.length; k++) {
    var path = ctx.paths[k];
    if (isFile(path) && open(path).indexOf("AKIA") >= 0) {
      return {ask: path + " looks like it holds an AWS access key"};
    }
  }
  return null;
}

function preOps(ctx) {
  var op = ctx.op;
  if (op.write && op.path.indexOf(FROZEN) === 0) {
    return {deny: "config is frozen during the incident"};
  }
  return null;
}

function preSession(ctx) {
  var w = ctx.write;
  if (w.verb === "export" && (w.key.indexOf("AWS_") === 0 || w.key.indexOf("_SECRET") >= 0)) {
    return {deny: "secrets stay out of the environment: " + w.key};
  }
  return null;
}
