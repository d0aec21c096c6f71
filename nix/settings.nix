# SPDX-License-Identifier: MIT
# `settings`: kli's config.ini as Nix, checked and written as kli reads it.
# Builtins only (nix/lib.nix imports it with its INI and path helpers).
#
# The shape is pkgs.formats.ini's: a set of sections, each a set of keys,
# a list for a key that repeats (kli adds the lines of a list key up):
#
#   kli              profile; capabilities (a list of entries, or one
#                    string split at commas; [ ] grants nothing)
#   "profile NAME"   extends; capabilities
#   model            base-url, model, api-key-file, api-key-env,
#                    api-key-secret, timeout, idle-timeout,
#                    connect-timeout, retries, stream (baseUrl, apiKeyFile,
#                    apiKeyEnv and apiKeySecret too)
#   bash             env-allowlist (or envAllowlist), a list; timeout
#
# A null value writes no line. The older shape, `capabilities`, `profile`
# and `profiles.NAME` at the top, is translated (fromLegacy): existing
# configurations keep working; the module warns with the new spelling.
#
# The text is written here rather than by lib.generators.toINI: toINI
# writes no line for an empty list, and `kli.capabilities = [ ]` must be
# an empty `capabilities =` (grant nothing), not no key (kli's universal
# default grant).
{ show, trim, hasPrefix, optional, optionals, concatMap, unlines, pick, iniLine, packedLines, checkPath }:
let
  b = builtins;

  modelKeys = [
    "base-url" "model" "api-key-file" "api-key-env" "api-key-secret"
    "timeout" "idle-timeout" "connect-timeout" "retries" "stream"
  ];
  modelAliases = { baseUrl = "base-url"; apiKeyFile = "api-key-file"; apiKeyEnv = "api-key-env"; apiKeySecret = "api-key-secret"; };
  keySources = [ "api-key-file" "api-key-env" "api-key-secret" ];
  bashKeys = [ "env-allowlist" "timeout" ];
  bashAliases = { envAllowlist = "env-allowlist"; };
  kliKeys = [ "profile" "capabilities" ];
  profileKeys = [ "extends" "capabilities" ];
  secretKeys = [ "api-key" "apiKey" "api_key" "key" "token" "password" "secret" ];
  legacyKeys = [ "capabilities" "profile" "profiles" ];

  unknownKey = where: known: n:
    if b.elem n secretKeys then
      throw "kli: ${where}.${n}: a secret must not be written into the Nix store, which every local user can read; use api-key-file or api-key-env"
    else
      throw "kli: ${where}: unknown key ${show n}; the keys are ${b.concatStringsSep ", " known}";

  # Rename aliases to kli's own key names; an alias and its key together
  # would be two values for one key. A null value is no key at all.
  canonical = where: aliases: set:
    b.foldl' (acc: n:
      let k = aliases.${n} or n;
      in if set.${n} == null then acc
         else if acc ? ${k} then throw "kli: ${where}: ${show k} is given twice (as ${show n} too)"
         else acc // { ${k} = set.${n}; })
      { } (b.attrNames set);

  checkAttrs = where: v:
    if b.isAttrs v then v else throw "kli: ${where}: expected an attribute set, got ${show v}";

  checkProfileName = where: maxLen: n:
    if !(b.isString n) || b.match "[A-Za-z0-9._-]+" n == null then
      throw "kli: ${where}: ${show n} is not a profile name (letters, digits, '-', '_' and '.')"
    else if b.stringLength n > maxLen then
      throw "kli: ${where}: profile name ${show n} is longer than ${toString maxLen} characters"
    else n;

  capabilityEntries = where: v:
    let
      entries =
        if b.isString v then map trim (b.filter b.isString (b.split "," v))
        else if b.isList v then
          map (e:
            if !(b.isString e) then throw "kli: ${where}: expected a capability string, got ${show e}"
            else if b.match ".*,.*" e != null then
              throw "kli: ${where}: ${show e} holds a comma; give one capability per list entry"
            else trim e) v
        else throw "kli: ${where}: expected a list of capabilities, got ${show v}";
      empty = b.filter (e: e == "") entries;
    in
    if b.isString v && trim v == "" then [ ]
    else if empty != [ ] then throw "kli: ${where}: an empty capability entry"
    else entries;

  capabilityLines = where: v:
    if v == null then [ ] else packedLines where "capabilities" (capabilityEntries where v);

  intIn = where: lo: hi: v:
    if b.isInt v && v >= lo && v <= hi then toString v
    else throw "kli: ${where}: expected a whole number from ${toString lo} to ${toString hi}, got ${if b.isInt v then toString v else show v}";

  ranges = { timeout = [ 1 86400 ]; idle-timeout = [ 1 86400 ]; connect-timeout = [ 1 300 ]; retries = [ 0 100 ]; };

  modelLine = key: v:
    let where = "settings.model.${key}";
    in
    if ranges ? ${key} then [ (iniLine where key (intIn where (b.elemAt ranges.${key} 0) (b.elemAt ranges.${key} 1) v)) ]
    else if key == "stream" then
      (if b.isBool v then [ (iniLine where key (if v then "true" else "false")) ]
       else throw "kli: ${where}: expected true or false, got ${show v}")
    else if !(b.isString v) || v == "" then throw "kli: ${where}: expected a non-empty string, got ${show v}"
    else if key == "base-url" && !(hasPrefix "http://" v || hasPrefix "https://" v || hasPrefix "unix:/" v) then
      throw "kli: ${where}: ${show v} must start with http://, https:// or unix:/"
    else if key == "api-key-file" && !(hasPrefix "/" v || hasPrefix "~/" v) then
      throw "kli: ${where}: ${show v} is a relative path; write it absolute or from the home directory (\"~/...\")"
    else if key == "api-key-env" && b.match "[A-Za-z_][A-Za-z0-9_]*" v == null then
      throw "kli: ${where}: ${show v} is not a variable name"
    else if key == "api-key-secret" && b.match "[a-z0-9_-]{1,32}" v == null then
      throw "kli: ${where}: ${show v} is not a kjail secret's name (1 to 32 of a-z, 0-9, '_' and '-')"
    else [ (iniLine where key v) ];

  # A set of keys: the known ones (aliases renamed, nulls dropped), or the
  # error naming the first unknown one.
  keysOf = where: known: aliases: v:
    let
      set = canonical where aliases (checkAttrs where v);
      unknown = b.filter (n: !(b.elem n known)) (b.attrNames set);
    in
    if unknown != [ ] then unknownKey where (known ++ b.attrNames aliases) (b.head unknown) else set;

  kliSection = v:
    let
      s = keysOf "settings.kli" kliKeys { } v;
      profile = s.profile or null;
    in
    optional (profile != null) (iniLine "settings.kli.profile" "profile" (checkProfileName "settings.kli.profile" 64 profile))
    ++ capabilityLines "settings.kli.capabilities" (s.capabilities or null);

  profileSection = section: name: v:
    let
      where = "settings.${b.toJSON section}";
      p = keysOf where profileKeys { } v;
    in
    [ "" "[profile ${checkProfileName where 41 name}]" ]
    ++ optional (p ? extends) (iniLine "${where}.extends" "extends" (checkProfileName "${where}.extends" 64 p.extends))
    ++ capabilityLines "${where}.capabilities" (p.capabilities or null);

  modelSection = v:
    let m = keysOf "settings.model" modelKeys modelAliases v;
    in concatMap (k: modelLine k m.${k}) (pick modelKeys m);

  bashSection = v:
    let
      s = keysOf "settings.bash" bashKeys bashAliases v;
      allow = s.env-allowlist or null;
      names = if b.isString allow then [ allow ] else allow;
    in
    (if allow == null then [ ]
     else if !(b.isList names) then throw "kli: settings.bash.env-allowlist: expected a list of names, got ${show allow}"
     else packedLines "settings.bash.env-allowlist" "env-allowlist"
       (map (n: if b.isString n && b.match "[A-Za-z_][A-Za-z0-9_]*[*]?" n != null then n
                else throw "kli: settings.bash.env-allowlist: ${show n} is not a variable name (or a NAME* prefix)") names))
    ++ optional (s ? timeout) (iniLine "settings.bash.timeout" "timeout" (intIn "settings.bash.timeout" 1 86400 s.timeout));

  # "profile NAME" -> NAME; anything else -> null
  profileName = section: let m = b.match "profile (.*)" section; in if m == null then null else b.head m;

  # The older shape, as the new one: capabilities and profile into [kli],
  # profiles.NAME into "profile NAME". Either spelling, not both.
  isLegacy = s: b.isAttrs s && b.any (n: s ? ${n}) legacyKeys;
  fromLegacy = s0:
    let
      s = checkAttrs "settings" s0;
      rest = removeAttrs s legacyKeys;
      kliPart = b.removeAttrs { capabilities = s.capabilities or null; profile = s.profile or null; }
        (b.filter (n: !(s ? ${n})) [ "capabilities" "profile" ]);
      profiles = checkAttrs "settings.profiles" (s.profiles or { });
      sections = b.listToAttrs (map (n: { name = "profile ${n}"; value = profiles.${n}; }) (b.attrNames profiles));
      clash = b.filter (n: rest ? ${n}) (b.attrNames sections);
    in
    if !(isLegacy s) then s
    else if kliPart != { } && rest ? kli then
      throw "kli: settings: settings.${b.head (b.attrNames kliPart)} beside settings.kli; write it as settings.kli.${b.head (b.attrNames kliPart)}"
    else if clash != [ ] then
      throw "kli: settings: settings.profiles.${profileName (b.head clash)} beside settings.${b.toJSON (b.head clash)}; keep one"
    else rest // sections // (if kliPart == { } then { } else { kli = kliPart; });

  # The older spellings a set uses, with the new ones, for the warning.
  legacySpellings = s:
    optional (s ? capabilities) "settings.capabilities (now settings.kli.capabilities)"
    ++ optional (s ? profile) "settings.profile (now settings.kli.profile)"
    ++ optional (s ? profiles) "settings.profiles.NAME (now settings.\"profile NAME\")";

  kliIni = settings0:
    let
      settings = fromLegacy (checkAttrs "settings" settings0);
      names = b.attrNames settings;
      known = n: b.elem n [ "kli" "model" "bash" ] || profileName n != null;
      unknown = b.filter (n: !(known n)) names;
      section = name: lines: optionals (lines != [ ]) ([ "" "[${name}]" ] ++ lines);
      profiles = b.filter (n: profileName n != null) names;
    in
    if unknown != [ ] then
      throw "kli: settings: unknown section ${show (b.head unknown)}; the sections are kli, model, bash and \"profile NAME\""
    else
      unlines ([
        "; kli system config, generated by kli's nix/lib.nix from `settings`."
        "; Lowest precedence: the user's config.ini comes after it, and a project's"
        "; .kli/config.ini may only narrow."
      ]
      ++ section "kli" (kliSection (settings.kli or { }))
      ++ concatMap (n: profileSection n (profileName n) settings.${n}) profiles
      ++ section "model" (modelSection (settings.model or { }))
      ++ section "bash" (bashSection (settings.bash or { })));

  # apiKeyFile: the model's key file. Under a sandbox, the wrapper passes
  # it as `kjail --secret model=FILE` and kli's config reads it from the
  # descriptor (api-key-secret = model): no tool in the jail can read it.
  # Without one there is no jail to hand it over: api-key-file = FILE.
  # Beside a key named in settings.model it would be a second source.
  withApiKey = { settings, sandbox, apiKeyFile }:
    let
      s = fromLegacy (checkAttrs "settings" settings);
      model = canonical "settings.model" modelAliases (checkAttrs "settings.model" (s.model or { }));
      named = b.filter (k: model ? ${k}) keySources;
      file = checkPath "apiKeyFile" apiKeyFile;
    in
    if apiKeyFile == null then settings
    else if named != [ ] then
      throw "kli: apiKeyFile: settings.model.${b.head named} names the key too; keep one"
    else s // {
      model = model // (if sandbox == null then { api-key-file = file; } else { api-key-secret = "model"; });
    };

  # kli's capabilities as configured ([kli] capabilities; null: none named,
  # kli's universal default), for the containment gate.
  capabilitiesOf = settings: ((fromLegacy (checkAttrs "settings" settings)).kli or { }).capabilities or null;
in
{
  inherit kliIni withApiKey fromLegacy isLegacy legacySpellings capabilitiesOf;
}
