# SPDX-License-Identifier: MIT
# The logic of kli's Nix packaging, as pure functions over builtins only.
#
# Nothing here needs nixpkgs: nix/tests.nix checks every function with
# `nix-instantiate --eval --strict` and no store, no network. The one
# function that builds derivations, mkConfiguredKli, takes `pkgs` as an
# argument and uses only pkgs.callPackage, writeText, runCommand and
# runtimeShell, so the tests hand it stand-ins.
#
#   kjailIni SANDBOX         the kjail.ini text for a `sandbox` set
#   kliIni SETTINGS          the kli config.ini text for a `settings` set
#   wrapperScript ARGS       the `kli` wrapper: exec kjail --config STORE -- kli
#   containmentGate ARGS     the build-time checks: kjail --check-config on a
#                            copy of the policy, then the configured grant
#                            must fit it (kli --check-containment)
#   shellQuote STRING        STRING as one word for sh
#   mkConfiguredKli ARGS     the configured kli, wrapped when `sandbox` is set
#   sourceFilter ROOT        a builtins.path filter for the source tree
#   versionOf CONFIGURE_AC   the version in AC_INIT
#
# Every invalid input is an evaluation error (`throw`) whose message starts
# with "kli:" and names the option at fault, so a policy that kjail or kli
# would refuse, or read differently than written, never reaches the store.
let
  b = builtins;

  # ------------------------------------------------------------ helpers
  hasPrefix = p: s: b.substring 0 (b.stringLength p) s == p;
  hasSuffix = x: s:
    let n = b.stringLength s; m = b.stringLength x;
    in n >= m && b.substring (n - m) m s == x;
  concatMap = f: l: b.concatLists (map f l);
  optional = c: x: if c then [ x ] else [ ];
  optionals = c: l: if c then l else [ ];
  # A value as the reader of a message should see it: quoted, escaped.
  show = v: if b.isString v then b.toJSON v else "a ${b.typeOf v}";
  trim = s:
    let m = b.match "[ \t]*(.*[^ \t]|)[ \t]*" s;
    in if m == null then s else b.head m;
  boolText = v: if v then "true" else "false";
  unlines = ls: b.concatStringsSep "\n" ls + "\n";
  # Keep the attributes in `names` order; a missing one is left out.
  pick = names: set: concatMap (n: optional (set ? ${n}) n) names;

  # -------------------------------------------------------- INI values
  # kjail and kli read their config through the same guarded reader over
  # inih: a line (key, " = " and value, without the newline) may be at most
  # 198 bytes, the value is the rest of the line with white space trimmed,
  # and a ';' after white space starts a comment. A value that would be cut,
  # trimmed or split is refused here rather than read differently there.
  maxLine = 198;

  iniLine = where: key: value:
    let
      line = if value == "" then "${key} =" else "${key} = ${value}";
      len = b.stringLength line;
    in
    if !(b.isString value) then
      throw "kli: ${where}: expected a string, got ${show value}"
    else if b.match ".*[\n\r].*" value != null then
      throw "kli: ${where}: ${show value} contains a line break; an INI value is one line"
    else if b.match ".*[ \t];.*" value != null then
      throw "kli: ${where}: ${show value} contains a ';' after white space, which the INI reader takes as the start of a comment (the value would be cut there)"
    else if trim value != value then
      throw "kli: ${where}: ${show value} begins or ends with white space, which the INI reader would strip"
    else if len > maxLine then
      throw "kli: ${where}: the line '${b.substring 0 40 line}...' would be ${toString len} bytes; the config reader accepts at most ${toString maxLine} bytes a line"
    else
      line;

  # Several entries of a list key, packed ", "-separated into as few lines
  # as fit (kli adds up repeated `capabilities` and `env-allowlist` lines).
  # An empty list is one empty value: for `capabilities`, "grant nothing".
  packedLines = where: key: entries:
    let
      step = acc: e:
        let joined = if acc.cur == null then e else "${acc.cur}, ${e}";
        in
        if b.stringLength "${key} = ${joined}" <= maxLine then acc // { cur = joined; }
        else if acc.cur == null then acc // { cur = e; } # too long alone: iniLine says so
        else { lines = acc.lines ++ [ acc.cur ]; cur = e; };
      r = b.foldl' step { lines = [ ]; cur = null; } entries;
    in
    if entries == [ ] then [ (iniLine where key "") ]
    else map (iniLine where key) (r.lines ++ optional (r.cur != null) r.cur);

  # ------------------------------------------------------------- paths
  pathString = where: p:
    if b.isPath p then toString p
    else if b.isString p then p
    else throw "kli: ${where}: expected a path string, got ${show p}";

  # An absolute path, or one from the home directory (~ or ~/...): kjail
  # resolves no path against the directory it happens to start in.
  checkPath = where: p0:
    let p = pathString where p0;
    in
    if p == "" then throw "kli: ${where}: empty path"
    else if !(hasPrefix "/" p || hasPrefix "~/" p || p == "~") then
      throw "kli: ${where}: ${show p} is a relative path; write it absolute (\"/home/me/...\") or from the home directory (\"~/...\")"
    else p;

  # Drop trailing slashes (not the root's) and "." components, for the
  # comparisons below; the file itself gets the path as written.
  normPath = p:
    let
      parts = b.filter (c: b.isString c && c != "" && c != ".") (b.split "/" p);
    in
    if hasPrefix "/" p then "/" + b.concatStringsSep "/" parts
    else b.concatStringsSep "/" parts;

  # `a` is `c` or an ancestor of it, component by component.
  isPrefixPath = a: c: a == "/" || a == c || hasPrefix (a + "/") c;

  # A writable path that holds the store would let the session rewrite its
  # own policy (kjail would refuse the config at run time; say it now).
  checkWritable = where: p:
    let n = normPath p;
    in
    if hasPrefix "/" n && isPrefixPath n b.storeDir then
      throw "kli: ${where}: ${show p} would make ${b.storeDir} writable, and with it the wrapper's own policy"
    else p;

  # ------------------------------------------------------- environment
  # kjail's rule (conf.c, env_pattern_valid): letters, digits and _*?[]!-.
  checkEnvPattern = where: s:
    if !(b.isString s) then throw "kli: ${where}: expected a variable name or pattern, got ${show s}"
    else if b.match "[]A-Za-z0-9_*?![-]+" s == null then
      throw "kli: ${where}: ${show s} is not a variable name or shell glob pattern (letters, digits, '_' and the glob characters * ? [ ] ! -)"
    else s;

  # --allow-host values: kjail checks each one in full when it reads the
  # file (a bad one stops every run, naming the line); here only what would
  # break the INI line or cannot be a host.
  checkHost = where: h:
    if !(b.isString h) then throw "kli: ${where}: expected a host string, got ${show h}"
    else if b.match "[]A-Za-z0-9.*_:@[-]+" h == null then
      throw "kli: ${where}: ${show h} is not HOST[:PORT] (a name, *.SUFFIX, an IPv4 address, [IPv6], or @GROUP; no scheme, path or spaces)"
    else h;

  # --device classes (kjail's device.c): gpu.
  checkDevice = where: d:
    if d == "gpu" then d
    else throw "kli: ${where}: ${show d} is not a device class (gpu)";
  # --allow-socket values: a name of kjail's table (src/kjail/policy/sockets.c)
  # or a path as checkPath takes it; kjail checks that it is a socket.
  socketNames = [ "ssh-agent" "gpg-agent" "docker" "podman" "system-bus" ];
  checkSocket = where: v:
    if b.isString v && b.elem v socketNames then v
    else if b.isString v && !(hasPrefix "/" v || hasPrefix "~/" v) then
      throw "kli: ${where}: ${show v} is neither a socket name (${b.concatStringsSep ", " socketNames}) nor an absolute path"
    else checkPath where v;

  # kli's rule for [model] api-key-env: a variable name.
  isVarName = s: b.isString s && b.match "[A-Za-z_][A-Za-z0-9_]*" s != null;
  # kli's rule for [bash] env-allowlist: a name, or a PREFIX* pattern.
  isAllowName = s: b.isString s && b.match "[A-Za-z_][A-Za-z0-9_]*[*]?" s != null;

  # ---------------------------------------------------------- sandbox
  # The options of the original `programs.kli.sandbox`, plus kjail's
  # keepEnv, allowUserns, cache, allowedHosts, devices and allowSockets. `defaults` and `backend` are not options: the
  # wrapper always keeps kjail's built-in masks and scrub, and never
  # selects the container backend (no jail at all).
  sandboxDefaults = {
    network = true;
    nestedUserns = false;
    allowUserns = false;
    # kjail's toolchain caches: true (per workspace), false, or "shared"
    cache = true;
    writablePaths = [ ];
    denyRead = [ ];
    denyEnv = [ ];
    keepEnv = [ ];
    allowedHosts = [ ];
    devices = [ ];
    allowSockets = [ ];
    # the build-time containment gate (not a kjail key: see mkConfiguredKli)
    checkContainment = true;
  };

  normalizeSandbox = s:
    let
      unknown = b.filter (n: !(sandboxDefaults ? ${n})) (b.attrNames s);
      full = sandboxDefaults // s;
      bool = n:
        if b.isBool full.${n} then full.${n}
        else throw "kli: sandbox.${n}: expected true or false, got ${show full.${n}}";
      list = n:
        if b.isList full.${n} then full.${n}
        else throw "kli: sandbox.${n}: expected a list, got ${show full.${n}}";
    in
    if !(b.isAttrs s) then
      throw "kli: sandbox: expected an attribute set (or null for no sandbox), got ${show s}"
    else if unknown != [ ] then
      throw "kli: sandbox: unknown option ${show (b.head unknown)}; the options are ${b.concatStringsSep ", " (b.attrNames sandboxDefaults)}"
    else {
      network = bool "network";
      nestedUserns = bool "nestedUserns";
      allowUserns = bool "allowUserns";
      checkContainment = bool "checkContainment";
      cache =
        if b.isBool full.cache || full.cache == "shared" then full.cache
        else throw "kli: sandbox.cache: expected true, false or \"shared\", got ${show full.cache}";
      writablePaths = map (p: checkWritable "sandbox.writablePaths" (checkPath "sandbox.writablePaths" p)) (list "writablePaths");
      denyRead = map (checkPath "sandbox.denyRead") (list "denyRead");
      denyEnv = map (checkEnvPattern "sandbox.denyEnv") (list "denyEnv");
      keepEnv = map (checkEnvPattern "sandbox.keepEnv") (list "keepEnv");
      allowedHosts = map (checkHost "sandbox.allowedHosts") (list "allowedHosts");
      devices = map (checkDevice "sandbox.devices") (list "devices");
      allowSockets = map (checkSocket "sandbox.allowSockets") (list "allowSockets");
    };

  kjailIni = sandbox:
    let s = normalizeSandbox (if sandbox == null then { } else sandbox);
    in
    unlines ([
      "; kjail policy for the kli wrapper, generated by kli's nix/lib.nix."
      "; The wrapper passes it with --config, so kjail reads no other config file."
    ]
    ++ optionals (!s.checkContainment) [
      "; WARNING: sandbox.checkContainment = false: the build did not check that kli's"
      "; grant fits this policy; only the check at every start (kli --check-containment"
      "; inside the jail) stands between a grant the jail cannot honour and the agent."
    ]
    ++ [
      "[sandbox]"
      # an allowlist is its own network namespace: network = true beside
      # it would be a contradiction kjail refuses, so the list wins
      (iniLine "sandbox.network" "network" (boolText (s.network && s.allowedHosts == [ ])))
      (iniLine "sandbox.nestedUserns" "nested-userns" (boolText s.nestedUserns))
      (iniLine "sandbox.allowUserns" "allow-userns" (boolText s.allowUserns))
      (iniLine "sandbox.cache" "cache" (if b.isBool s.cache then boolText s.cache else s.cache))
      (iniLine "sandbox" "defaults" "true")
    ]
    ++ map (iniLine "sandbox.writablePaths" "writable") s.writablePaths
    ++ map (iniLine "sandbox.denyRead" "deny-read") s.denyRead
    ++ map (iniLine "sandbox.denyEnv" "deny-env") s.denyEnv
    ++ map (iniLine "sandbox.keepEnv" "keep-env") s.keepEnv
    ++ map (iniLine "sandbox.allowedHosts" "allow-host") s.allowedHosts
    ++ map (iniLine "sandbox.devices" "device") s.devices
    ++ map (iniLine "sandbox.allowSockets" "allow-socket") s.allowSockets);

  # --------------------------------------------------------- settings
  # kli's config.ini from `settings`: nix/settings.nix.
  settingsLib = import ./settings.nix {
    inherit show trim hasPrefix optional optionals concatMap unlines pick iniLine packedLines checkPath;
  };
  inherit (settingsLib) kliIni withApiKey capabilitiesOf;

  # ----------------------------------------------------------- wrapper
  checkSecret = s:
    if b.isString s && b.match "[a-z0-9_-]{1,32}=[^\n\r]+" s != null then s
    else throw "kli: wrapper: a secret must be NAME=PATH (NAME 1 to 32 of a-z, 0-9, '_' and '-'), got ${show s}";

  shellQuote = s: "'" + b.replaceStrings [ "'" ] [ "'\\''" ] s + "'";

  checkAbsolute = where: p:
    if b.isString p && hasPrefix "/" p && b.match ".*[\n\r].*" p == null then p
    else throw "kli: wrapper: ${where} must be an absolute path, got ${show p}";

  # The `kli` on PATH. Every path is a store path fixed at build time, and
  # --config makes kjail read that one policy file: not /etc/kjail, not
  # ~/.config/kjail, nothing from the workspace or the environment. bash
  # runs with -p (privileged mode), so BASH_ENV is not sourced and no
  # function (an exported `exec`, say) is imported from the environment.
  #
  # secrets: kjail --secret values ("model=~/.config/kli/api-key"): kjail
  # reads each file outside the jail, masks it inside and hands the bytes
  # to kli on a descriptor (kjail(1)).
  # gate: inside the jail, before the agent, `kli --check-containment`
  # judges the grant against the real jail ($KJAIL_POLICY); on a gap its
  # lines go to stderr and kli does not start.
  #
  # systemConfig: kli's config.ini from `settings`, passed by path
  # (kli --system-config: the lowest layer, trusted as kli's own system
  # file is), so a settings change changes this file, not kli.
  wrapperScript = { shell, kjail, kjailConfig, kli, secrets ? [ ], gate ? false, systemConfig ? null }:
    let
      sh = checkAbsolute "shell" shell;
      kliPath = shellQuote (checkAbsolute "kli" kli);
      sysFlag = if systemConfig == null then "" else " --system-config ${shellQuote (checkAbsolute "systemConfig" systemConfig)}";
      runGate = "out=$(\"$0\"${sysFlag} --check-containment 2>&1) || { printf '%s\\n' \"$out\" >&2; echo 'kli: the grant does not fit this jail (kli --check-containment); not starting' >&2; exit 1; }; exec \"$0\"${sysFlag} \"$@\"";
      command =
        if gate then "${shellQuote sh} -p -c ${shellQuote runGate} ${kliPath} \"$@\""
        else "${kliPath}${sysFlag} \"$@\"";
    in
    if b.match "[^ \t]+" sh == null then
      throw "kli: wrapper: the shell path ${show sh} holds white space, which a #! line cannot carry"
    else
      unlines [
        "#!${sh} -p"
        "# kli, confined by kjail; generated by kli's nix/lib.nix."
        "# The policy is the store file named after --config: kjail reads no other"
        "# config, so nothing in the session can loosen it for the next run."
        "exec ${shellQuote (checkAbsolute "kjail" kjail)} --config ${shellQuote (checkAbsolute "kjailConfig" kjailConfig)}${b.concatStringsSep "" (map (s: " --secret ${shellQuote (checkSecret s)}") secrets)} -- ${command}"
      ];

  # Without a sandbox, with settings: kli with the settings' store file as
  # its system config (home-manager has no /etc to write it to).
  plainWrapperScript = { shell, kli, systemConfig }:
    unlines [
      "#!${checkAbsolute "shell" shell} -p"
      "# kli with its settings from the store; generated by kli's nix/lib.nix."
      "exec ${shellQuote (checkAbsolute "kli" kli)} --system-config ${shellQuote (checkAbsolute "systemConfig" systemConfig)} \"$@\""
    ];

  # ------------------------------------------------------------ source
  # What of the checkout is source. Mirrors .gitignore, so a tree that was
  # built in place builds the same as a clean clone; nix/*.nix are left out
  # so that editing the packaging does not rebuild the programs.
  sourceFilter = root: path: type:
    let
      rel = b.substring (b.stringLength (toString root) + 1) (-1) (toString path);
      base = b.baseNameOf (toString path);
      top = b.elem rel [
        "configure" "configure~" "Makefile" "Makefile.in" "aclocal.m4" "config.h"
        "config.h.in" "config.h.in~" "config.log" "config.status" "stamp-h1"
        "kjail" "kli" "gen-seccomp-bpf" "build-aux" "autom4te.cache" "test-suite.log"
      ];
      anywhere = b.elem base [ ".git" ".deps" ".dirstamp" "Makefile" "Makefile.in" ];
      generated = b.any (x: hasSuffix x base) [ ".o" ".a" ".log" ".trs" ".tar.gz" ];
      builtDir = dir: prefix: keep:
        b.dirOf rel == dir && hasPrefix prefix base && !(b.any (x: hasSuffix x base) keep);
      # tests/unit mirrors src/: its programs sit in folders below it
      builtUnder = dir: prefix: keep:
        hasPrefix (dir + "/") rel && hasPrefix prefix base && !(b.any (x: hasSuffix x base) keep);
    in
    !(top || anywhere || generated
      || hasPrefix "build-" rel || hasPrefix "result" rel || hasPrefix "kjail-" rel
      || hasPrefix "tests/integration/work." rel
      || (b.dirOf rel == "nix" && hasSuffix ".nix" base)
      || (b.dirOf rel == "nix" && base == "flake.lock")
      || builtUnder "tests/unit" "test_" [ ".c" ]
      || builtDir "tests/fuzz" "fuzz_" [ ".c" ]
      || (type != "directory" && builtDir "tests/helpers" "" [ ".c" ".h" ".py" ".sh" ]));

  versionOf = configureAc:
    let m = b.match ".*AC_INIT[(][[][^]]*[]], *[[]([^]]*)[]].*" configureAc;
    in if m == null then throw "kli: no AC_INIT version in configure.ac" else b.head m;

  # ------------------------------------------------------ derivations
  # The kli to install. `package` (default: nix/package.nix through
  # pkgs.callPackage) is always used as it is, unmodified and
  # substitutable: `settings` become a store file of their own
  # (kliConfigFile), so a settings change rebuilds that file and the
  # wrapper, never kli.
  #   sandbox set      a `kli` wrapper that runs kli under kjail with a
  #                    store policy and passes the settings' file with
  #                    kli --system-config; passthru.unsandboxed is kli
  #   no sandbox       with settings (or apiKeyFile): a `kli` wrapper that
  #                    passes the file with --system-config (home-manager);
  #                    with etc = true the package itself, the caller
  #                    writing the file to /etc/kli/config.ini (NixOS)
  #   neither          the package itself
  # lib: nixpkgs' lib, when the caller has it (lib.getExe, lib.getExe').
  #
  # With a sandbox the build runs containmentGate: kjail checks a copy of
  # the policy and prints it as declared (--check-config --json, nothing of
  # the build machine resolved); with `settings.kli.capabilities` too (and
  # sandbox.checkContainment, the default), kli checks the configured
  # grant against it, so a grant the sandbox cannot honour (file/write
  # under a path it keeps read-only, file/read of a path it masks) fails
  # the build with the gate's lines, and the wrapper runs the same check
  # against the real jail at every start. Without `capabilities` the grant
  # is kli's default, universal, which only the sandbox bounds: no gate.
  kliConfigFile = { pkgs, settings ? { }, sandbox ? null, apiKeyFile ? null }:
    let s = withApiKey { inherit settings sandbox apiKeyFile; };
    in if s == { } then null else pkgs.writeText "kli-config.ini" (kliIni s);

  mkConfiguredKli = { pkgs, package ? null, settings ? { }, sandbox ? null, apiKeyFile ? null, etc ? false, lib ? null }:
    let
      full = withApiKey { inherit settings sandbox apiKeyFile; };
      base = if package != null then package else pkgs.callPackage ./package.nix { };
      exe = name:
        if lib != null && lib ? getExe' then lib.getExe' base name
        else "${base}/bin/${name}";
      # Validated eagerly (see the `seq`s below): a bad setting is an error
      # as soon as the result is looked at, not only when it is built.
      kliText = kliIni full;
      kjailText = kjailIni sandbox;
      kliConfig = kliConfigFile { inherit pkgs settings sandbox apiKeyFile; };
      systemConfig = if kliConfig == null then null else "${kliConfig}";
      kjailConfig = pkgs.writeText "kjail.ini" kjailText;
      version = base.version or "0";
      canRun = (pkgs.stdenv.buildPlatform.system or null) == (pkgs.stdenv.hostPlatform.system or "");
      gate = capabilitiesOf full != null;
      checkAtBuild = gate && (sandbox.checkContainment or true);
      links = ''
        mkdir -p "$out/bin"
        cp "$scriptPath" "$out/bin/kli"
        chmod 0555 "$out/bin/kli"
        ln -s ${shellQuote (exe "kjail")} "$out/bin/kjail"
        # The manual pages, file by file (a profile merges directories).
        for page in ${base}/share/man/man*/*; do
          [ -e "$page" ] || continue
          section=$(basename "$(dirname "$page")")
          mkdir -p "$out/share/man/$section"
          ln -s "$page" "$out/share/man/$section/"
        done
      '';
      wrapperDrv = name: script: passthru: extra:
        pkgs.runCommand "${name}-${version}"
          {
            inherit script version;
            passAsFile = [ "script" ];
            preferLocalBuild = true;
            allowSubstitutes = false;
            inherit passthru;
            meta = (base.meta or { }) // { mainProgram = "kli"; };
          }
          (links + extra);
      sandboxed = wrapperDrv "kli-sandboxed"
        (wrapperScript {
          shell = pkgs.runtimeShell;
          kjail = exe "kjail";
          kli = exe "kli";
          kjailConfig = "${kjailConfig}";
          secrets = if apiKeyFile == null then [ ] else [ "model=${checkPath "apiKeyFile" apiKeyFile}" ];
          inherit gate systemConfig;
        })
        { unsandboxed = base; inherit kjailConfig kliConfig; }
        (if canRun then containmentGate {
          check = checkAtBuild;
          kjail = exe "kjail";
          kli = exe "kli";
          kjailConfig = "${kjailConfig}";
          kliConfig = if kliConfig == null then "/dev/null" else "${kliConfig}";
        } else "");
      configured = wrapperDrv "kli"
        (plainWrapperScript { shell = pkgs.runtimeShell; kli = exe "kli"; inherit systemConfig; })
        { unwrapped = base; inherit kliConfig; }
        "";
      result =
        if sandbox != null then sandboxed
        else if kliConfig == null || etc then base
        else configured;
    in
    b.seq kliText (b.seq kjailText result);

  # The build-time checks, as shell for a build command. kjail reads a
  # copy of the policy (the build owns it: inside a sandbox with build
  # users a store file shows as the overflow uid, which kjail refuses for
  # --config) and checks it with --check-config, which resolves nothing of
  # the build machine (no socket, device, home path or cache place), from
  # a scratch workspace, HOME outside it. With `check`, kli then judges the
  # configured grant against that declared policy (kli --check-containment;
  # its "~" is the stand-in home): on a gap, each of the gate's lines on
  # stderr, prefixed "kli: ", and exit 1.
  containmentGate = { kjail, kli, kjailConfig, kliConfig, check ? true }: ''
    # kjail --check-config: the policy as declared, nothing of this machine
    gate=''${TMPDIR:-/tmp}/kli-gate
    mkdir -p "$gate/ws" "$gate/xdg/kli"
    cp ${shellQuote kjailConfig} "$gate/kjail.ini"
    chmod 0600 "$gate/kjail.ini"
    if ! (cd "$gate/ws" && export HOME="$gate/home" XDG_CONFIG_HOME="$gate/xdg" &&
          ${shellQuote kjail} --config "$gate/kjail.ini" --check-config --json >"$gate/policy.json") 2>"$gate/out"
    then
      sed 's/^/kli: /' "$gate/out" >&2
      exit 1
    fi
  '' + (if !check then "" else ''
    # kli --check-containment: the configured grant must fit the sandbox.
    cp ${shellQuote kliConfig} "$gate/xdg/kli/config.ini"
    if ! (cd "$gate/ws" && export HOME="$gate/home" XDG_CONFIG_HOME="$gate/xdg" &&
          ${shellQuote kli} --check-containment --jail-policy "$gate/policy.json") >"$gate/out" 2>&1
    then
      echo "kli: the configured grant does not fit its sandbox (kli --check-containment):" >&2
      sed 's/^/kli: /' "$gate/out" >&2
      exit 1
    fi
  '');
in
{
  inherit containmentGate;
  inherit (settingsLib) fromLegacy isLegacy legacySpellings;
  inherit maxLine shellQuote kjailIni kliIni wrapperScript plainWrapperScript sourceFilter versionOf
    mkConfiguredKli kliConfigFile sandboxDefaults normalizeSandbox checkPath checkEnvPattern
    normPath;
}
