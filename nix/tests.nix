# SPDX-License-Identifier: MIT
# Tests of lib.nix, package.nix, module.nix and flake.nix, with builtins
# only: no nixpkgs, no store, no network. Run
#
#   nix-instantiate --eval --strict --store dummy:// nix/tests.nix
#
# for a TAP report as one string (tests/integration/nix-eval.test prints it
# and adds what Nix cannot check on itself: the text of error messages).
#
# Other cases, for that shell test, chosen by the environment (a top-level
# function would need an --arg to be called at all):
#   KLI_NIX_TESTS=errors       "NAME<TAB>MESSAGE" lines, one per error case
#   KLI_NIX_TESTS=error:NAME   evaluate that case (it must throw MESSAGE)
#   KLI_NIX_TESTS=standin-pkgs the stand-in nixpkgs (for a fake NIX_PATH)
#   KLI_NIX_TESTS=check        "N tests passed", or an evaluation error
#   KLI_NIX_TESTS=gate:NAME    the containment gate of gateCases.NAME, as sh
#                              naming the failures (a non-zero exit)
let
  b = builtins;
  case = let c = b.getEnv "KLI_NIX_TESTS"; in if c == "" then "tap" else c;
  kliLib = import ./lib.nix;
  flake = import ./flake.nix;
  flakeOut = flake.outputs { self = flakeOut; };

  hasPrefix = p: s: b.substring 0 (b.stringLength p) s == p;
  hasInfix = x: s:
    let n = b.stringLength x; m = b.stringLength s;
    in n <= m && b.any (i: b.substring i n s == x) (b.genList (i: i) (m - n + 1));
  lines = s: b.filter (l: b.isString l && l != "") (b.split "\n" s);
  repeat = n: s: b.concatStringsSep "" (b.genList (_: s) n);

  # ---------------------------------------------------------- stand-ins
  storePath = name: "/nix/store/00000000000000000000000000000000-${name}";
  fakeDrv = name: { type = "derivation"; inherit name; outPath = storePath name; };
  platform = { system = "x86_64-linux"; canExecute = p: p.system == "x86_64-linux"; };

  # What package.nix takes from nixpkgs' lib.
  nixpkgsLib = {
    platforms.linux = [ "x86_64-linux" "aarch64-linux" ];
    licenses.mit = { spdxId = "MIT"; shortName = "mit"; };
  };

  stdenv = {
    buildPlatform = platform;
    hostPlatform = platform;
    mkDerivation = a:
      a // (a.passthru or { }) // {
        type = "derivation";
        name = "${a.pname}-${a.version}";
        outPath = storePath "${a.pname}-${a.version}";
      };
  };

  # callPackage: the arguments the function names, from the set, and
  # .override to call it again with some replaced.
  callPackageWith = set: fn: args:
    let
      f = if b.isFunction fn then fn else import fn;
      call = a: f (b.intersectAttrs (b.functionArgs f) set // a) // { override = n: call (a // n); };
    in
    call args;

  fakePkgs = {
    lib = nixpkgsLib;
    inherit stdenv;
    callPackage = callPackageWith fakePkgs;
    runtimeShell = storePath "bash-5.2" + "/bin/bash";
    writeText = name: text: fakeDrv name // { inherit text; };
    runCommand = name: env: buildCommand:
      fakeDrv name // (env.passthru or { }) // { inherit env buildCommand; };
    autoreconfHook = fakeDrv "autoreconf-hook";
    pkg-config = fakeDrv "pkg-config-0.29";
    bubblewrap = fakeDrv "bubblewrap-0.11.0";
    libbsd = fakeDrv "libbsd-0.12";
    inih = fakeDrv "inih-58";
    libseccomp = fakeDrv "libseccomp-2.5.5";
    jansson = fakeDrv "jansson-2.14";
    curl = fakeDrv "curl-8.9";
    cmocka = fakeDrv "cmocka-1.1.7";
  };

  # What module.nix takes from nixpkgs' lib: options are their declarations,
  # types carry a check and a `fill` (a submodule fills in its defaults).
  modTypes = rec {
    mk = name: check: { inherit name check; fill = x: x; };
    bool = mk "bool" b.isBool;
    str = mk "str" b.isString;
    anything = mk "anything" (_: true);
    enum = vs: mk "enum" (x: b.elem x vs) // { values = vs; };
    package = mk "package" (x: b.isAttrs x && (x.type or null) == "derivation");
    listOf = t: mk "listOf" (x: b.isList x && b.all t.check x) // { elemType = t; };
    attrsOf = t: mk "attrsOf" (x: b.isAttrs x && b.all t.check (b.attrValues x)) // { elemType = t; };
    nullOr = t: {
      name = "nullOr";
      elemType = t;
      check = x: x == null || t.check x;
      fill = x: if x == null then null else t.fill x;
    };
    submodule = m: {
      name = "submodule";
      module = m;
      check = x: b.isAttrs x && b.all (n: m.options ? ${n} && m.options.${n}.type.check x.${n}) (b.attrNames x);
      fill = x: b.mapAttrs (n: o: if x ? ${n} then x.${n} else o.default) m.options;
    };
  };
  modLib = {
    types = modTypes;
    mkOption = a: a // { _type = "option"; };
    mkEnableOption = what: {
      _type = "option";
      type = modTypes.bool;
      default = false;
      description = "Whether to enable ${what}.";
    };
    mkIf = condition: content: { _type = "if"; inherit condition content; };
    literalExpression = text: { _type = "literalExpression"; inherit text; };
    # nixpkgs' lib.mkPackageOption, for a name at the top of pkgs
    mkPackageOption = pkgs: name: { }: {
      _type = "option";
      type = modTypes.package;
      default = pkgs.${name};
      defaultText = { _type = "literalExpression"; text = "pkgs.${name}"; };
      description = "The ${name} package to use.";
    };
  };

  # The module with a user's programs.kli values: each declared option gets
  # the user's value (type-checked, defaults filled in) or its default.
  evalKli = { user ? { }, hm ? false, pkgs ? fakePkgs }:
    let
      m = import ./module.nix {
        config = cfgTree;
        lib = modLib;
        inherit pkgs;
        options = if hm then { home = { }; } else { environment = { }; };
      };
      decl = m.options.programs.kli;
      unknown = b.filter (n: !(decl ? ${n})) (b.attrNames user);
      value = n: o:
        if !(user ? ${n}) then o.default
        else if o.readOnly or false then throw "programs.kli.${n} is read-only"
        else if o.type.check user.${n} then o.type.fill user.${n}
        else throw "programs.kli.${n}: not a ${o.type.name}";
      cfgTree = {
        programs.kli =
          if unknown != [ ] then throw "programs.kli.${b.head unknown} does not exist"
          else b.mapAttrs value decl;
      };
    in
    { inherit m decl; cfg = cfgTree.programs.kli; config = m.config; };

  # ---------------------------------------------------------- fixtures
  storeConfig = storePath "kjail.ini";
  basePkg = fakePkgs.callPackage ./package.nix { };

  emptyIni = ''
    ; kjail policy for the kli wrapper, generated by kli's nix/lib.nix.
    ; The wrapper passes it with --config, so kjail reads no other config file.
    [sandbox]
    network = true
    nested-userns = false
    allow-userns = false
    cache = true
    defaults = true
  '';

  fullSandbox = {
    network = false;
    nestedUserns = true;
    allowUserns = true;
    cache = "shared";
    writablePaths = [ "~/.cache/kli" "/srv/shared cache" ];
    denyRead = [ "/home/u/my secrets" "~/.config/gh" ];
    denyEnv = [ "AWS_SECRET_ACCESS_KEY" "GH_TOKEN" "VAULT_*" ];
    keepEnv = [ "GITHUB_TOKEN" ];
    allowedHosts = [ "@models" "api.example.com:8443" "*.npmjs.org" ];
    allowSockets = [ "ssh-agent" "~/.gnupg/S.gpg-agent" ];
  };
  fullIni = ''
    ; kjail policy for the kli wrapper, generated by kli's nix/lib.nix.
    ; The wrapper passes it with --config, so kjail reads no other config file.
    [sandbox]
    network = false
    nested-userns = true
    allow-userns = true
    cache = shared
    defaults = true
    writable = ~/.cache/kli
    writable = /srv/shared cache
    deny-read = /home/u/my secrets
    deny-read = ~/.config/gh
    deny-env = AWS_SECRET_ACCESS_KEY
    deny-env = GH_TOKEN
    deny-env = VAULT_*
    keep-env = GITHUB_TOKEN
    allow-host = @models
    allow-host = api.example.com:8443
    allow-host = *.npmjs.org
    allow-socket = ssh-agent
    allow-socket = ~/.gnupg/S.gpg-agent
  '';

  fullSettings = {
    profile = "print";
    capabilities = [ "file/read" "file/write under src/" "process/exec" ];
    profiles.reviewer = { extends = "print"; capabilities = [ "file/read" ]; };
    model = {
      base-url = "http://127.0.0.1:8080/v1";
      model = "qwen2.5-coder";
      apiKeyFile = "~/.config/kli/api-key";
      timeout = 60;
      retries = 2;
    };
    bash.env-allowlist = [ "PATH" "LANG" "LC_*" ];
  };
  fullKliIni = ''
    ; kli system config, generated by kli's nix/lib.nix from `settings`.
    ; Lowest precedence: the user's config.ini comes after it, and a project's
    ; .kli/config.ini may only narrow.

    [kli]
    profile = print
    capabilities = file/read, file/write under src/, process/exec

    [profile reviewer]
    extends = print
    capabilities = file/read

    [model]
    base-url = http://127.0.0.1:8080/v1
    model = qwen2.5-coder
    api-key-file = ~/.config/kli/api-key
    timeout = 60
    retries = 2

    [bash]
    env-allowlist = PATH, LANG, LC_*
  '';
  kliHeader = ''
    ; kli system config, generated by kli's nix/lib.nix from `settings`.
    ; Lowest precedence: the user's config.ini comes after it, and a project's
    ; .kli/config.ini may only narrow.
  '';

  # 60 capabilities of 20 bytes: more than one line can hold.
  manyCaps = b.genList (i: "net/host-${toString (100 + i)} in 1..9") 60;
  manyCapsText = kliLib.kliIni { capabilities = manyCaps; };
  manyCapsLines = b.filter (hasPrefix "capabilities = ") (lines manyCapsText);
  entriesOf = ls: b.concatLists (map (l:
    b.filter (e: b.isString e) (b.split ", " (b.substring (b.stringLength "capabilities = ") (-1) l))) ls);

  # A deny-read line of exactly 198 bytes: "deny-read = " is 12.
  path186 = "/" + repeat 185 "a";
  path187 = "/" + repeat 186 "a";

  wrapperArgs = {
    shell = "/nix/store/x-bash/bin/bash";
    kjail = "/nix/store/x-kli/bin/kjail";
    kjailConfig = "/nix/store/y-kjail.ini";
    kli = "/nix/store/x-kli/bin/kli";
  };

  sandboxed = kliLib.mkConfiguredKli { pkgs = fakePkgs; sandbox = { }; };
  sandboxedWithSettings = kliLib.mkConfiguredKli {
    pkgs = fakePkgs;
    sandbox = { network = false; };
    settings = { capabilities = [ "file/read" ]; };
  };
  configuredOnly = kliLib.mkConfiguredKli { pkgs = fakePkgs; settings = fullSettings; };

  # The build-time containment gate (issue 28): a grant that exceeds its
  # sandbox, and one that fits. nix-e2e.test runs each case's gate
  # (KLI_NIX_TESTS=gate:NAME) with this build's kjail and kli: the first
  # must fail with the gate's line, the second pass.
  gateCases = {
    exceeds = {
      sandbox = { };
      settings = { capabilities = [ "file/read" "file/write under /etc" ]; };
    };
    fits = {
      sandbox = { network = false; };
      settings = { capabilities = [ "file/read" "file/write under ." "process/exec" ]; };
    };
  };
  gated = n: kliLib.mkConfiguredKli ({ pkgs = fakePkgs; } // gateCases.${n});
  # KLI_GATE_DIR, KLI_GATE_KJAIL, KLI_GATE_KLI: where to write the two
  # configs, and the programs to run.
  gateScript = n:
    let
      dir = b.getEnv "KLI_GATE_DIR";
      c = gateCases.${n};
    in
    "cat >${kliLib.shellQuote "${dir}/kjail.ini"} <<'KJAIL_INI'\n"
    + kliLib.kjailIni c.sandbox + "KJAIL_INI\n"
    + "cat >${kliLib.shellQuote "${dir}/kli.ini"} <<'KLI_INI'\n"
    + kliLib.kliIni c.settings + "KLI_INI\n"
    + kliLib.containmentGate {
      kjail = b.getEnv "KLI_GATE_KJAIL";
      kli = b.getEnv "KLI_GATE_KLI";
      kjailConfig = "${dir}/kjail.ini";
      kliConfig = "${dir}/kli.ini";
    };

  # The sandbox example of the original kli's documentation, as written there.
  home = "/home/alice";
  originalExample = {
    enable = true;
    sandbox = {
      network = true;
      writablePaths = [ "${home}/.cache/kli" ];
      denyRead = [ "${home}/.aws" ];
      denyEnv = [ "AWS_SECRET_ACCESS_KEY" ];
    };
  };
  nixosOriginal = evalKli { user = originalExample; };
  hmOriginal = evalKli { user = originalExample; hm = true; };
  nixosOff = evalKli { };
  nixosPlain = evalKli { user = { enable = true; }; };
  nixosSettings = evalKli { user = { enable = true; settings = fullSettings; }; };

  overlaid =
    let final = fakePkgs // flakeOut.overlays.default final fakePkgs;
    in final;

  # ------------------------------------------------------ error cases
  # Each must be an evaluation error whose message holds `message`
  # (nix-eval.test checks the text, which tryEval cannot see).
  errorCases = {
    api-key-file-twice = {
      expr = (evalKli { user = { enable = true; apiKeyFile = "~/k"; settings.model.api-key-env = "KEY"; sandbox = { }; }; }).cfg.finalPackage.env.script;
      message = ''kli: apiKeyFile: settings.model.api-key-env names the key too; keep one'';
    };
    api-key-file-relative = {
      expr = (evalKli { user = { enable = true; apiKeyFile = "k"; sandbox = { }; }; }).cfg.finalPackage.env.script;
      message = ''kli: apiKeyFile: "k" is a relative path'';
    };
    bad-api-key-secret = {
      expr = kliLib.kliIni { model.api-key-secret = "Model"; };
      message = ''kli: settings.model.api-key-secret: "Model" is not a kjail secret's name'';
    };
    relative-writable = {
      expr = kliLib.kjailIni { writablePaths = [ "relative/dir" ]; };
      message = ''kli: sandbox.writablePaths: "relative/dir" is a relative path; write it absolute'';
    };
    relative-deny-read = {
      expr = kliLib.kjailIni { denyRead = [ "secrets" ]; };
      message = ''kli: sandbox.denyRead: "secrets" is a relative path; write it absolute'';
    };
    dot-relative-deny-read = {
      expr = kliLib.kjailIni { denyRead = [ "./.env" ]; };
      message = ''kli: sandbox.denyRead: "./.env" is a relative path'';
    };
    module-relative-writable = {
      expr = (evalKli { user = { enable = true; sandbox = { writablePaths = [ "cache/kli" ]; }; }; }).cfg.finalPackage;
      message = ''kli: sandbox.writablePaths: "cache/kli" is a relative path'';
    };
    module-relative-deny-read = {
      expr = (evalKli { user = { enable = true; sandbox = { denyRead = [ ".aws" ]; }; }; }).cfg.finalPackage;
      message = ''kli: sandbox.denyRead: ".aws" is a relative path'';
    };
    flake-lib-relative = {
      expr = flakeOut.lib.mkConfiguredKli { pkgs = fakePkgs; sandbox = { denyRead = [ "x/y" ]; }; };
      message = ''kli: sandbox.denyRead: "x/y" is a relative path'';
    };
    empty-path = {
      expr = kliLib.kjailIni { denyRead = [ "" ]; };
      message = "kli: sandbox.denyRead: empty path";
    };
    deny-env-space = {
      expr = kliLib.kjailIni { denyEnv = [ "AWS SECRET" ]; };
      message = ''kli: sandbox.denyEnv: "AWS SECRET" is not a variable name or shell glob pattern'';
    };
    deny-env-assignment = {
      expr = kliLib.kjailIni { denyEnv = [ "FOO=bar" ]; };
      message = ''kli: sandbox.denyEnv: "FOO=bar" is not a variable name or shell glob pattern'';
    };
    deny-env-empty = {
      expr = kliLib.kjailIni { denyEnv = [ "" ]; };
      message = ''kli: sandbox.denyEnv: "" is not a variable name'';
    };
    allowed-host-scheme = {
      expr = kliLib.kjailIni { allowedHosts = [ "https://api.example.com" ]; };
      message = ''kli: sandbox.allowedHosts: "https://api.example.com" is not HOST[:PORT]'';
    };
    allow-socket-unknown = {
      expr = kliLib.kjailIni { allowSockets = [ "ssh" ]; };
      message = ''kli: sandbox.allowSockets: "ssh" is neither a socket name (ssh-agent, gpg-agent, docker, podman, system-bus) nor an absolute path'';
    };
    allowed-host-space = {
      expr = kliLib.kjailIni { allowedHosts = [ "api.example.com 443" ]; };
      message = ''kli: sandbox.allowedHosts: "api.example.com 443" is not HOST[:PORT]'';
    };
    device-unknown = {
      expr = kliLib.kjailIni { devices = [ "tpu" ]; };
      message = ''kli: sandbox.devices: "tpu" is not a device class (gpu)'';
    };
    keep-env-bad = {
      expr = kliLib.kjailIni { keepEnv = [ "$HOME" ]; };
      message = ''kli: sandbox.keepEnv: "$HOME" is not a variable name'';
    };
    path-newline = {
      expr = kliLib.kjailIni { denyRead = [ "/a\ndeny-read = /b" ]; };
      message = "contains a line break; an INI value is one line";
    };
    path-comment = {
      expr = kliLib.kjailIni { denyRead = [ "/home/u/notes ;old" ]; };
      message = "contains a ';' after white space, which the INI reader takes as the start of a comment";
    };
    path-trailing-space = {
      expr = kliLib.kjailIni { writablePaths = [ "/srv/x " ]; };
      message = "begins or ends with white space, which the INI reader would strip";
    };
    path-too-long = {
      expr = kliLib.kjailIni { denyRead = [ path187 ]; };
      message = "would be 199 bytes; the config reader accepts at most 198 bytes a line";
    };
    sandbox-bad-cache = {
      expr = kliLib.kjailIni { cache = "per-workspace"; };
      message = ''kli: sandbox.cache: expected true, false or "shared", got "per-workspace"'';
    };
    unknown-sandbox-key = {
      expr = kliLib.kjailIni { netwrok = false; };
      message = ''kli: sandbox: unknown option "netwrok"'';
    };
    sandbox-bad-bool = {
      expr = kliLib.kjailIni { network = "no"; };
      message = ''kli: sandbox.network: expected true or false, got "no"'';
    };
    writable-store = {
      expr = kliLib.kjailIni { writablePaths = [ "/nix" ]; };
      message = "would make /nix/store writable, and with it the wrapper's own policy";
    };
    writable-root = {
      expr = kliLib.kjailIni { writablePaths = [ "/" ]; };
      message = "would make /nix/store writable";
    };
    settings-secret = {
      expr = kliLib.kliIni { model.apiKey = "sk-123"; };
      message = "kli: settings.model.apiKey: a secret must not be written into the Nix store";
    };
    settings-unknown = {
      expr = kliLib.kliIni { capabilites = [ ]; };
      message = ''kli: settings: unknown key "capabilites"'';
    };
    settings-alias-twice = {
      expr = kliLib.kliIni { model = { baseUrl = "http://a/"; base-url = "http://b/"; }; };
      message = ''kli: settings.model: "base-url" is given twice'';
    };
    settings-base-url = {
      expr = kliLib.kliIni { model.base-url = "ftp://host/"; };
      message = "must start with http://, https:// or unix:/";
    };
    settings-key-file = {
      expr = kliLib.kliIni { model.api-key-file = "key.txt"; };
      message = ''kli: settings.model.api-key-file: "key.txt" is a relative path'';
    };
    settings-timeout = {
      expr = kliLib.kliIni { model.timeout = 0; };
      message = "kli: settings.model.timeout: expected a whole number from 1 to 86400, got 0";
    };
    settings-comma = {
      expr = kliLib.kliIni { capabilities = [ "file/read, process/exec" ]; };
      message = "holds a comma; give one capability per list entry";
    };
    settings-profile-name = {
      expr = kliLib.kliIni { profiles."my profile" = { capabilities = [ ]; }; };
      message = ''kli: settings.profiles.my profile: "my profile" is not a profile name'';
    };
    settings-allowlist = {
      expr = kliLib.kliIni { bash.env-allowlist = [ "A-B" ]; };
      message = ''kli: settings.bash.env-allowlist: "A-B" is not a variable name'';
    };
    settings-long-capability = {
      expr = kliLib.kliIni { capabilities = [ ("file/read under /" + repeat 190 "d") ]; };
      message = "kli: settings.capabilities: the line 'capabilities = file/read under /dddddddd...' would be 222 bytes";
    };
    wrapper-relative = {
      expr = kliLib.wrapperScript (wrapperArgs // { kjail = "bin/kjail"; });
      message = ''kli: wrapper: kjail must be an absolute path, got "bin/kjail"'';
    };
    settings-need-override = {
      expr = kliLib.mkConfiguredKli { pkgs = fakePkgs; package = fakeDrv "kli"; settings = { capabilities = [ ]; }; };
      message = "kli: package: settings are baked into the package's system config";
    };
    flake-packages-pure = {
      expr = flakeOut.legacyPackages.x86_64-linux.kli.name;
      message = "kli: this flake has no inputs, so packages.x86_64-linux needs a nixpkgs on the search path";
    };
  };

  # ------------------------------------------------------------- tests
  show = v:
    let r = b.tryEval (b.toJSON v);
    in if r.success then r.value else "<${b.typeOf v}>";

  # eq NAME GOT EXPECTED; ok NAME BOOL; throws NAME EXPR. An unexpected
  # throw in a test makes that test fail, not the whole file.
  eq = name: got: expected: {
    inherit name;
    result = b.tryEval (b.deepSeq got (got == expected));
    diag = "expected: ${show expected}\ngot:      ${show got}";
  };
  ok = name: cond: { inherit name; result = b.tryEval cond; diag = ""; };
  throws = name: expr: {
    inherit name;
    result = { success = true; value = !(b.tryEval (b.deepSeq expr true)).success; };
    diag = "evaluated without an error";
  };
  skipIf = c: reason: t: if c then t // { skip = reason; } else t;

  tests = [
    # shellQuote
    (eq "shellQuote: a plain word" (kliLib.shellQuote "kjail") "'kjail'")
    (eq "shellQuote: a single quote" (kliLib.shellQuote "it's") "'it'\\''s'")
    (eq "shellQuote: spaces and $ stay literal" (kliLib.shellQuote "a b $HOME `x`") "'a b $HOME `x`'")

    # kjailIni
    (eq "kjailIni {}: the default policy, every scalar explicit" (kliLib.kjailIni { }) emptyIni)
    (eq "kjailIni null: the same as {}" (kliLib.kjailIni null) emptyIni)
    (eq "kjailIni: every option" (kliLib.kjailIni fullSandbox) fullIni)
    (ok "kjailIni: allowedHosts take the place of network = true (kjail refuses both at once)"
      (let t = kliLib.kjailIni { allowedHosts = [ "@models" ]; };
       in hasInfix "network = false\n" t && hasInfix "allow-host = @models\n" t))
    (ok "module: sandbox.allowedHosts reach the store ini as allow-host lines"
      (let t = (evalKli { user = { enable = true; sandbox = { allowedHosts = [ "@models" "github.com" ]; }; }; }).cfg.finalPackage.kjailConfig.text;
       in hasInfix "network = false\n" t && hasInfix "allow-host = @models\nallow-host = github.com\n" t))
    (ok "kjailIni: devices = [ \"gpu\" ] is a device = gpu line"
      (b.elem "device = gpu" (lines (kliLib.kjailIni { devices = [ "gpu" ]; }))))
    (ok "module: sandbox.devices reach the store ini as device lines"
      (let t = (evalKli { user = { enable = true; sandbox = { devices = [ "gpu" ]; }; }; }).cfg.finalPackage.kjailConfig.text;
       in hasInfix "device = gpu\n" t))
    (ok "module: sandbox.allowSockets reach the store ini as allow-socket lines"
      (let t = (evalKli { user = { enable = true; sandbox = { allowSockets = [ "ssh-agent" "/run/x.sock" ]; }; }; }).cfg.finalPackage.kjailConfig.text;
       in hasInfix "network = true\n" t && hasInfix "allow-socket = ssh-agent\nallow-socket = /run/x.sock\n" t))
    (ok "kjailIni: network = false" (b.elem "network = false" (lines (kliLib.kjailIni { network = false; }))))
    (ok "kjailIni: nestedUserns = true" (b.elem "nested-userns = true" (lines (kliLib.kjailIni { nestedUserns = true; }))))
    (ok "kjailIni: a denyRead entry with a space is written as is (no quoting)"
      (b.elem "deny-read = /home/u/my secrets" (lines (kliLib.kjailIni { denyRead = [ "/home/u/my secrets" ]; }))))
    (eq "kjailIni: denyEnv entries, one line each, in order"
      (b.filter (hasPrefix "deny-env") (lines (kliLib.kjailIni { denyEnv = [ "B_*" "A" "[XY]Z?" ]; }))) [ "deny-env = B_*" "deny-env = A" "deny-env = [XY]Z?" ])
    (ok "kjailIni: a Nix path value becomes its absolute path"
      (b.elem "deny-read = /srv/data" (lines (kliLib.kjailIni { denyRead = [ (/. + "/srv/data") ]; }))))
    (ok "kjailIni: ~ alone and ~/ paths are accepted"
      (b.elem "writable = ~" (lines (kliLib.kjailIni { writablePaths = [ "~" "~/x" ]; }))))
    (ok "kjailIni: a '#' and a ';' without white space before it stay in the value"
      (b.elem "deny-read = /a#b;c" (lines (kliLib.kjailIni { denyRead = [ "/a#b;c" ]; }))))
    (ok "kjailIni: a line of exactly 198 bytes is accepted"
      (b.elem "deny-read = ${path186}" (lines (kliLib.kjailIni { denyRead = [ path186 ]; }))))
    (ok "kjailIni: a writable path beside the store is fine"
      (b.elem "writable = /nix/store-other" (lines (kliLib.kjailIni { writablePaths = [ "/nix/store-other" ]; }))))
    (throws "kjailIni: a writable /nix/store/ (trailing slash) is refused" (kliLib.kjailIni { writablePaths = [ "/nix/store/" ]; }))
    (ok "kjailIni: no line over 198 bytes, no line starting with white space"
      (b.all (l: b.stringLength l <= 198 && b.match "[ \t].*" l == null) (lines (kliLib.kjailIni fullSandbox))))
    (ok "kjailIni: never selects a backend and never drops the defaults"
      (let t = kliLib.kjailIni fullSandbox; in !(hasInfix "backend" t) && hasInfix "defaults = true" t))

    # kliIni
    (eq "kliIni {}: only the header" (kliLib.kliIni { }) kliHeader)
    (eq "kliIni: capabilities, a profile, a model and the bash allowlist" (kliLib.kliIni fullSettings) fullKliIni)
    (ok "kliIni: capabilities = [] is an empty value (grants nothing)"
      (b.elem "capabilities =" (lines (kliLib.kliIni { capabilities = [ ]; }))))
    (ok "kliIni: capabilities = null writes no key (the user's file decides)"
      (!(hasInfix "capabilities" (kliLib.kliIni { capabilities = null; profile = "print"; }))))
    (ok "kliIni: one capabilities string is split at its commas"
      (b.elem "capabilities = file/read, process/exec" (lines (kliLib.kliIni { capabilities = "file/read,process/exec"; }))))
    (ok "kliIni: a long capability list is spread over several lines"
      (b.length manyCapsLines > 1))
    (ok "kliIni: each of those lines fits the reader (198 bytes)"
      (b.all (l: b.stringLength l <= 198) manyCapsLines))
    (eq "kliIni: and together they hold every entry, in order" (entriesOf manyCapsLines) manyCaps)
    (ok "kliIni: camelCase model keys become kli's keys"
      (let t = kliLib.kliIni { model = { baseUrl = "unix:/run/llm.sock"; apiKeyEnv = "OPENAI_API_KEY"; }; };
       in hasInfix "base-url = unix:/run/llm.sock" t && hasInfix "api-key-env = OPENAI_API_KEY" t))
    (ok "kliIni: a profile name of 41 characters is accepted"
      (hasInfix "[profile ${repeat 41 "p"}]" (kliLib.kliIni { profiles.${repeat 41 "p"} = { }; })))
    (throws "kliIni: a profile name of 42 characters is refused (the section header would not fit)"
      (kliLib.kliIni { profiles.${repeat 42 "p"} = { }; }))

    # wrapperScript
    (eq "wrapperScript: bash -p, then exec kjail --config STORE -- kli \"$@\""
      (lines (kliLib.wrapperScript wrapperArgs))
      [
        "#!/nix/store/x-bash/bin/bash -p"
        "# kli, confined by kjail; generated by kli's nix/lib.nix."
        "# The policy is the store file named after --config: kjail reads no other"
        "# config, so nothing in the session can loosen it for the next run."
        "exec '/nix/store/x-kli/bin/kjail' --config '/nix/store/y-kjail.ini' -- '/nix/store/x-kli/bin/kli' \"$@\""
      ])
    (ok "wrapperScript: odd paths are quoted"
      (hasInfix "'/nix/store/a b/it'\\''s'" (kliLib.wrapperScript (wrapperArgs // { kli = "/nix/store/a b/it's"; }))))
    (throws "wrapperScript: a shell path with a space is refused" (kliLib.wrapperScript (wrapperArgs // { shell = "/a b/bash"; })))

    # sourceFilter, versionOf
    (ok "sourceFilter keeps the sources"
      (b.all (p: kliLib.sourceFilter /src (/src + "/${p}") "regular") [
        "configure.ac" "Makefile.am" "src/kjail/main.c" "src/kli/settings/settings.h" "nix/local.mk"
        "tests/integration/nix-e2e.test" "tests/unit/kjail/policy/test_env.c" "tests/helpers/try.c"
        "tests/helpers/kli-lib.sh" "doc/kjail.1" "contrib/nix/README.md"
      ]))
    (ok "sourceFilter drops build products, the packaging and CI copies"
      (!(b.any (p: kliLib.sourceFilter /src (/src + "/${p}") "regular") [
        "configure" "Makefile" "Makefile.in" "config.status" "kjail" "kli" "src/kjail/main.o"
        "libkjail.a" "tests/unit/kjail/policy/test_env" "tests/helpers/try" "tests/unit/kjail/policy/test_env.log"
        "nix/tests.nix" "nix/flake.nix" "tests/integration/work.cli.1/x" "build-ci" ".git"
        "result" "tests/fuzz/fuzz_ini_reader"
      ])))
    (eq "versionOf reads AC_INIT" (kliLib.versionOf "AC_INIT([kjail], [1.2.3], [], [kjail])\n") "1.2.3")
    (ok "versionOf reads this checkout's configure.ac"
      (b.match "[0-9]+\\.[0-9]+(\\.[0-9]+)?" (kliLib.versionOf (b.readFile ../configure.ac)) != null))

    # package.nix (with stand-ins)
    (eq "package: pname and the configure.ac version" [ basePkg.pname basePkg.version ]
      [ "kli" (kliLib.versionOf (b.readFile ../configure.ac)) ])
    (ok "package: bubblewrap's store path is baked in as kjail's bwrap"
      (b.elem "--with-bwrap=${storePath "bubblewrap-0.11.0"}/bin/bwrap" basePkg.configureFlags))
    (ok "package: kli's system config is /etc/kli/config.ini by default"
      (b.elem "--with-kli-system-config=/etc/kli/config.ini" basePkg.configureFlags))
    (ok "package: kliSystemConfig sets it"
      (b.elem "--with-kli-system-config=/nix/store/z-kli.ini"
        (basePkg.override { kliSystemConfig = "/nix/store/z-kli.ini"; }).configureFlags))
    (ok "package: autotools, pkg-config and the libraries"
      (b.all (d: b.elem d basePkg.nativeBuildInputs || b.elem d basePkg.buildInputs)
        [ fakePkgs.autoreconfHook fakePkgs.pkg-config fakePkgs.libseccomp fakePkgs.inih fakePkgs.curl fakePkgs.jansson fakePkgs.libbsd ]))
    (ok "package: make check runs the unit tests only"
      (basePkg.doCheck && hasInfix "TESTS=$(filter tests/unit/%,$(check_PROGRAMS))" basePkg.checkPhase))
    (ok "package: the install check runs kli --print-authority (the baked config parses)"
      (basePkg.doInstallCheck && hasInfix "kli --print-authority" basePkg.installCheckPhase))
    (eq "package: Linux only" basePkg.meta.platforms nixpkgsLib.platforms.linux)
    (eq "package: meta.license is MIT" basePkg.meta.license nixpkgsLib.licenses.mit)

    # mkConfiguredKli
    (eq "mkConfiguredKli: no sandbox, no settings: the package itself"
      (kliLib.mkConfiguredKli { pkgs = fakePkgs; }).outPath basePkg.outPath)
    (ok "mkConfiguredKli: settings are baked in as the system config"
      (b.elem "--with-kli-system-config=${storePath "kli-config.ini"}" configuredOnly.configureFlags
       && configuredOnly.kliSystemConfig.text == fullKliIni))
    (eq "mkConfiguredKli: sandbox {}: a wrapper derivation" sandboxed.name "kli-sandboxed-${basePkg.version}")
    (eq "mkConfiguredKli: its policy file is kjailIni {}" sandboxed.kjailConfig.text emptyIni)
    (eq "mkConfiguredKli: the unwrapped kli is passthru.unsandboxed" sandboxed.unsandboxed.outPath basePkg.outPath)
    (eq "mkConfiguredKli: the wrapper script runs the store kjail with the store policy"
      sandboxed.env.script
      (kliLib.wrapperScript {
        shell = fakePkgs.runtimeShell;
        kjail = "${basePkg}/bin/kjail";
        kjailConfig = storePath "kjail.ini";
        kli = "${basePkg}/bin/kli";
      }))
    # apiKeyFile: the key as a kjail secret under a sandbox
    (ok "module: apiKeyFile under a sandbox: the wrapper passes --secret model=FILE"
      (let p = (evalKli { user = { enable = true; apiKeyFile = "~/.config/kli/api-key"; sandbox = { }; }; }).cfg.finalPackage;
       in hasInfix "--config '${storePath "kjail.ini"}' --secret 'model=~/.config/kli/api-key' -- '" p.env.script))
    (ok "module: apiKeyFile under a sandbox: kli's config says api-key-secret = model, no key file"
      (let p = (evalKli { user = { enable = true; apiKeyFile = "/home/u/.kli-key"; sandbox = { }; }; }).cfg.finalPackage;
       in b.elem "api-key-secret = model" (lines p.kliConfig.text)
          && !(hasInfix "api-key-file" p.kliConfig.text) && !(hasInfix "/home/u/.kli-key" p.kliConfig.text)))
    (ok "module: apiKeyFile without a sandbox: api-key-file = FILE (no jail to hand it over)"
      (let p = (evalKli { user = { enable = true; apiKeyFile = "/home/u/.kli-key"; }; }).cfg.finalPackage;
       in b.elem "api-key-file = /home/u/.kli-key" (lines p.kliSystemConfig.text)
          && !(hasInfix "api-key-secret" p.kliSystemConfig.text)))
    (ok "module: no apiKeyFile: the wrapper passes no --secret"
      (!(hasInfix "--secret" (evalKli { user = { enable = true; sandbox = { }; }; }).cfg.finalPackage.env.script)))
    (ok "kliIni: settings.model.api-key-secret is written as is"
      (b.elem "api-key-secret = my-key" (lines (kliLib.kliIni { model.apiKeySecret = "my-key"; }))))
    (throws "wrapperScript: a secret that is not NAME=PATH is refused"
      (kliLib.wrapperScript (wrapperArgs // { secrets = [ "Model=/x" ]; })))
    (ok "mkConfiguredKli: the build installs it as bin/kli and checks a copy of the policy with kjail --check-config"
      (hasInfix "cp \"$scriptPath\" \"$out/bin/kli\"" sandboxed.buildCommand
       && hasInfix "cp '${storePath "kjail.ini"}' \"$gate/kjail.ini\"" sandboxed.buildCommand
       && hasInfix "bin/kjail' --config \"$gate/kjail.ini\" --check-config --json" sandboxed.buildCommand))
    (ok "mkConfiguredKli: with capabilities, the build runs the containment gate on the store configs"
      (b.all (n: hasInfix "--check-containment --jail-policy" (gated n).buildCommand
                 && hasInfix "--config \"$gate/kjail.ini\" --check-config --json" (gated n).buildCommand
                 && hasInfix "cp '${storePath "kli-config.ini"}'" (gated n).buildCommand)
        (b.attrNames gateCases)))
    (ok "mkConfiguredKli: without capabilities (kli's universal default) no gate"
      (!hasInfix "--check-containment" sandboxed.buildCommand))
    (ok "mkConfiguredKli: with settings too, the wrapper passes them by path to the unmodified kli"
      (b.elem "--with-kli-system-config=/etc/kli/config.ini" sandboxedWithSettings.unsandboxed.configureFlags
       # (the gate's sh -c quotes it once more)
       && hasInfix "--system-config '\\''${storePath "kli-config.ini"}'\\''" sandboxedWithSettings.env.script
       && hasInfix "network = false" sandboxedWithSettings.kjailConfig.text))

    # module.nix
    (eq "module: the options of programs.kli"
      (b.attrNames nixosOff.decl) [ "apiKeyFile" "enable" "finalPackage" "package" "sandbox" "settings" ])
    (eq "module: defaults: disabled, no settings, no sandbox"
      [ nixosOff.cfg.enable nixosOff.cfg.settings nixosOff.cfg.sandbox ] [ false { } null ])
    (eq "module: the default package is nix/package.nix" nixosOff.cfg.package.outPath basePkg.outPath)
    (ok "module: with pkgs.kli (the overlay), package is mkPackageOption pkgs \"kli\""
      (let
        overlaid = fakePkgs // { kli = basePkg // { marker = "overlay"; }; };
        e = evalKli { pkgs = overlaid; };
      in e.cfg.package.marker or null == "overlay" && e.decl.package.defaultText.text == "pkgs.kli"))
    (eq "module: sandbox defaults mirror the original (network on, nested userns off, empty lists)"
      (nixosOff.decl.sandbox.type.fill { })
      { network = true; nestedUserns = false; allowUserns = false; cache = true; writablePaths = [ ]; denyRead = [ ]; denyEnv = [ ]; keepEnv = [ ]; allowedHosts = [ ]; devices = [ ]; allowSockets = [ ]; checkContainment = true; })
    (ok "module: devices is a list of the device classes (gpu), nothing else"
      (nixosOff.decl.sandbox.type.elemType.module.options.devices.type.check [ "gpu" ]
       && !(nixosOff.decl.sandbox.type.elemType.module.options.devices.type.check [ "tpu" ])))
    (eq "module: allowedHosts beside network = true: a warning"
      (evalKli { user = { enable = true; sandbox = { allowedHosts = [ "example.org" ]; }; }; }).config.content.warnings
      [ "programs.kli.sandbox.allowedHosts overrides network = true: the session reaches only the listed hosts, through kjail's proxy (set network = false to say so)" ])
    (eq "module: allowedHosts with network = false: no warning"
      (evalKli { user = { enable = true; sandbox = { allowedHosts = [ "example.org" ]; network = false; }; }; }).config.content.warnings
      [ ])
    (ok "kjailIni: checkContainment = false writes a WARNING comment"
      (b.elem "; WARNING: sandbox.checkContainment = false: the build did not check that kli's"
        (lines (kliLib.kjailIni { checkContainment = false; }))
       && !(hasInfix "WARNING" (kliLib.kjailIni { }))))
    (eq "module: disabled: nothing is installed" nixosOff.config.condition false)
    (ok "module: NixOS: the kli goes to environment.systemPackages"
      (nixosPlain.config.condition && nixosPlain.config.content.environment.systemPackages == [ nixosPlain.cfg.finalPackage ]))
    (eq "module: without sandbox, finalPackage is the package" nixosPlain.cfg.finalPackage.outPath basePkg.outPath)
    (ok "module: home-manager: the kli goes to home.packages"
      (hmOriginal.config.content ? home && hmOriginal.config.content.home.packages == [ hmOriginal.cfg.finalPackage ]))
    (eq "module: the original documentation's sandbox example gives this policy"
      (b.filter (l: !(hasPrefix ";" l)) (lines hmOriginal.cfg.finalPackage.kjailConfig.text))
      [
        "[sandbox]" "network = true" "nested-userns = false" "allow-userns = false" "cache = true" "defaults = true"
        "writable = /home/alice/.cache/kli" "deny-read = /home/alice/.aws" "deny-env = AWS_SECRET_ACCESS_KEY"
      ])
    (eq "module: NixOS and home-manager build the same wrapper"
      nixosOriginal.cfg.finalPackage.env.script hmOriginal.cfg.finalPackage.env.script)
    (ok "module: the wrapper keeps the unwrapped kli as passthru.unsandboxed"
      (nixosOriginal.cfg.finalPackage.unsandboxed.outPath == basePkg.outPath))
    (ok "module: settings are baked into the package"
      (nixosSettings.cfg.finalPackage.kliSystemConfig.text == fullKliIni))
    (throws "module: an unknown sandbox option is refused"
      (evalKli { user = { sandbox = { netwrok = false; }; }; }).cfg.sandbox)
    (throws "module: finalPackage is read-only"
      (evalKli { user = { finalPackage = basePkg; }; }).cfg.finalPackage)

    # flake.nix
    (ok "flake: no inputs" (!(flake ? inputs) || flake.inputs == { }))
    (eq "flake: outputs" (b.attrNames flakeOut)
      [ "homeManagerModules" "homeModules" "legacyPackages" "lib" "nixosModules" "overlays" "packages" ])
    (ok "flake: nixosModules, homeModules and homeManagerModules are module.nix"
      (flakeOut.nixosModules.default.imports == [ ./module.nix ] && flakeOut.homeModules.default.imports == [ ./module.nix ]
       && flakeOut.homeManagerModules.default == flakeOut.homeModules.default))
    (skipIf (b.nixPath != [ ]) "a search path is set (NIX_PATH or -I)"
      (eq "flake: without a nixpkgs, packages is empty" flakeOut.packages { }))
    (skipIf (b.nixPath != [ ]) "a search path is set (NIX_PATH or -I)"
      (eq "flake: and legacyPackages.<system> has kli, kjail and default, for Linux"
        [ (b.attrNames flakeOut.legacyPackages.x86_64-linux) (b.elem "aarch64-linux" (b.attrNames flakeOut.legacyPackages)) ]
        [ [ "default" "kjail" "kli" ] true ]))
    (ok "flake: overlays.default adds kli, kjail (the same package) and mkConfiguredKli"
      (overlaid.kli.outPath == basePkg.outPath && overlaid.kjail.outPath == overlaid.kli.outPath
       && (overlaid.mkConfiguredKli { sandbox = { }; }).kjailConfig.text == emptyIni))
    (eq "flake: lib.packagesFor pkgs" (flakeOut.lib.packagesFor fakePkgs).default.outPath basePkg.outPath)
    (eq "flake: lib.mkConfiguredKli is lib.nix's"
      (flakeOut.lib.mkConfiguredKli { pkgs = fakePkgs; sandbox = { network = false; }; }).kjailConfig.text
      (kliLib.kjailIni { network = false; }))
    (skipIf (b.nixPath != [ ]) "a search path is set (NIX_PATH or -I)"
      (throws "flake: without a nixpkgs, legacyPackages.<system>.kli is an error that says what to do"
        flakeOut.legacyPackages.x86_64-linux.kli.name))
  ]
  ++ map (n: throws "error case ${n} is an evaluation error" errorCases.${n}.expr) (b.attrNames errorCases);

  # A skipped test is not evaluated at all.
  tapLine = i: t:
    let
      passed = t.result.success && t.result.value == true;
      why = if !t.result.success then "the test threw an error" else t.diag;
      diag = b.concatStringsSep "" (map (l: "# ${l}\n") (lines why));
    in
    if t ? skip then "ok ${toString i} - ${t.name} # SKIP ${t.skip}\n"
    else if passed then "ok ${toString i} - ${t.name}\n"
    else "not ok ${toString i} - ${t.name}\n${diag}";

  tap = b.concatStringsSep "" (b.genList (i: tapLine (i + 1) (b.elemAt tests i)) (b.length tests))
    + "1..${toString (b.length tests)}\n";

  errorList = b.concatStringsSep "" (map (n: "${n}\t${errorCases.${n}.message}\n") (b.attrNames errorCases));
in
if case == "tap" then tap
else if case == "check" then
  (let failed = b.filter (l: hasPrefix "not ok" l) (lines tap);
   in if failed == [ ] then "${toString (b.length tests)} tests passed"
      else throw "nix/tests.nix: ${toString (b.length failed)} failed:\n${b.concatStringsSep "\n" failed}")
else if case == "errors" then errorList
else if case == "standin-pkgs" then fakePkgs
else if hasPrefix "gate:" case then gateScript (b.substring 5 (-1) case)
else if hasPrefix "error:" case then
  (let c = errorCases.${b.substring 6 (-1) case}; in b.deepSeq c.expr c.expr)
else throw "nix/tests.nix: unknown case ${show case}"
