# SPDX-License-Identifier: MIT
# programs.kli, for NixOS (and nix-darwin) and for home-manager: the same
# module file. It puts one `kli` on PATH: environment.systemPackages where
# the configuration has no `home` options, home.packages where it does.
#
#   programs.kli = {
#     enable = true;
#     apiKeyFile = "~/.config/kli/api-key";   # a kjail secret under `sandbox`
#     settings.kli.capabilities = [ "file/read" "file/write under src/" "process/exec" ];
#     sandbox = {
#       network = true;
#       writablePaths = [ "${config.home.homeDirectory}/.cache/kli" ];
#       denyRead = [ "${config.home.homeDirectory}/.aws" ];
#       denyEnv = [ "AWS_SECRET_ACCESS_KEY" ];
#     };
#   };
#
# The options mirror the original kli's, so existing configurations keep
# working (the older `settings` shape with a warning naming the new one).
# Every piece of logic is in lib.nix (mkConfiguredKli); this file only
# declares the options and installs the result. Without a sandbox, NixOS
# gets kli's settings as /etc/kli/config.ini (the system config the
# package reads) and home-manager a `kli` that passes them with
# --system-config; kli itself is never rebuilt for a setting.
{ config, lib, pkgs, options, ... }:

let
  kliLib = import ./lib.nix;
  cfg = config.programs.kli;
  inherit (lib) mkOption mkEnableOption mkIf mkMerge optionalAttrs types literalExpression;
  # home-manager's option set has `home`, NixOS's (and nix-darwin's) not
  isHome = options ? home;
  iniFormat = pkgs.formats.ini { listsAsDuplicateKeys = true; };
  # the configuration's own definitions of settings, before the older
  # shape is translated: for the warning
  legacy = lib.concatMap kliLib.legacySpellings
    (builtins.filter builtins.isAttrs options.programs.kli.settings.definitions);
  kliConfig = kliLib.kliConfigFile { inherit pkgs; inherit (cfg) settings sandbox apiKeyFile; };

  pathList = what: example: mkOption {
    type = types.listOf types.str;
    default = [ ];
    inherit example;
    description = ''
      ${what} Each entry is an absolute path or starts with `~/`; a
      relative path is an evaluation error.
    '';
  };

  envList = what: example: mkOption {
    type = types.listOf types.str;
    default = [ ];
    inherit example;
    description = ''
      ${what} Each entry is a variable name or a shell glob pattern
      (`AWS_*`).
    '';
  };

  sandboxOptions = {
    options = {
      network = mkOption {
        type = types.bool;
        default = true;
        description = ''
          Keep the host network. `false` gives the session its own network
          namespace with only loopback: no DNS, and no model API either
          unless the model runs locally.
        '';
      };
      nestedUserns = mkOption {
        type = types.bool;
        default = false;
        description = ''
          For running inside a container that masks /proc: bind the
          existing /proc read-only instead of mounting one, and keep the
          PID namespace (the session then sees the container's processes).
        '';
      };
      allowUserns = mkOption {
        type = types.bool;
        default = false;
        description = ''
          Let the session create user namespaces of its own (for tools that
          sandbox themselves). See kjail(1) for what that costs.
        '';
      };
      cache = mkOption {
        type = types.either types.bool (types.enum [ "shared" ]);
        default = true;
        example = "shared";
        description = ''
          kjail's toolchain caches (`cache`): `true` gives each workspace a
          writable cache directory of kjail's own (npm, pip, go, ccache...
          pointed into it by their variables); `"shared"` binds the user's
          own cache directories writable instead, so what a session writes
          there every later build on the machine reads; `false` makes none.
          See kjail(1).
        '';
      };
      writablePaths = pathList "Paths bound writable besides the working directory."
        (literalExpression ''[ "''${config.home.homeDirectory}/.cache/kli" ]'');
      denyRead = pathList "Paths masked: a file reads as empty, a directory lists as empty."
        (literalExpression ''[ "''${config.home.homeDirectory}/.aws" ]'');
      denyEnv = envList "Variables removed from the session's environment."
        [ "AWS_SECRET_ACCESS_KEY" "GH_TOKEN" ];
      keepEnv = envList "Variables let through kjail's built-in secret scrub."
        [ "GITHUB_TOKEN" ];
      allowedHosts = mkOption {
        type = types.listOf types.str;
        default = [ ];
        example = [ "@models" "@registries" "github.com" "db.internal.example:5432" ];
        description = ''
          An egress allowlist (kjail's `allow-host`): when not empty, the
          session gets its own network namespace and reaches the network
          only through kjail's proxy, to these hosts (`HOST[:PORT]`: a
          name, `*.SUFFIX`, an IP address, or a group such as `@models`;
          the port defaults to 80 and 443). It takes the place of
          `network`. See kjail(1).
        '';
      };
      devices = mkOption {
        type = types.listOf (types.enum [ "gpu" ]);
        default = [ ];
        example = [ "gpu" ];
        description = ''
          Host devices the session may use (kjail's `device`): `gpu` binds
          the host's GPU nodes (`/dev/nvidia*`, `/dev/dri`, `/dev/kfd`)
          read-write; kjail refuses to start where there are none (at that
          start: the build does not look for a GPU). See
          kjail(1) for what a GPU gives away.
        '';
      };
      allowSockets = mkOption {
        type = types.listOf types.str;
        default = [ ];
        example = [ "ssh-agent" "/run/user/1000/app.sock" ];
        description = ''
          Unix sockets the session may reach (kjail's `allow-socket`), each
          bound alone, its directory still masked: `ssh-agent`,
          `gpg-agent`, `docker`, `podman`, `system-bus`, or an absolute
          path. `docker`, `podman` and `system-bus` give the host away
          (kjail warns on every run). A socket that is not there when kli
          starts is kjail's one-line error then; the build does not look
          for it. See kjail(1).
        '';
      };
      checkContainment = mkOption {
        type = types.bool;
        default = true;
        description = ''
          With `settings.kli.capabilities`: check at build time that the grant
          fits the declared sandbox (`kjail --check-config --json`, then
          `kli --check-containment`), failing the build with the gate's
          lines. `false` turns this off and writes a WARNING comment into
          the generated kjail.ini. The check at every start (inside the
          jail, against the real one, before kli runs) stays either way.
        '';
      };
    };
  };
in
{
  options.programs.kli = {
    enable = mkEnableOption "kli, a coding agent that holds only the authority it is granted";

    # nixpkgs' mkPackageOption where lib has it (pkgs.kli from the flake's
    # overlay); where pkgs has no kli, this checkout's package.nix.
    package =
      let
        fallback = {
          default = pkgs.kli or (pkgs.callPackage ./package.nix { });
          defaultText = literalExpression "pkgs.kli or (pkgs.callPackage ./nix/package.nix { })";
        };
        what = ''
          It is used unmodified: `settings` go to a file of their own, so a
          settings change rebuilds no kli.
        '';
      in
      if lib ? mkPackageOption then
        lib.mkPackageOption pkgs "kli" { extraDescription = what; } // fallback
      else mkOption ({
        type = types.package;
        description = "The kli (and kjail) package to use. ${what}";
      } // fallback);

    settings = mkOption {
      # pkgs.formats.ini's freeform type (sections of keys, a list for a
      # key that repeats); the older shape (capabilities, profile and
      # profiles.NAME at the top) is translated, with a warning.
      type = types.coercedTo
        (types.addCheck (types.attrsOf types.anything) kliLib.isLegacy // {
          description = "the older shape (capabilities, profile, profiles.NAME)";
        })
        kliLib.fromLegacy
        iniFormat.type;
      default = { };
      example = literalExpression ''
        {
          kli = {
            capabilities = [ "file/read" "file/write under src/" "process/exec" ];
            profile = "print";
          };
          "profile reviewer" = { extends = "print"; capabilities = [ "file/read" ]; };
          model = {
            base-url = "http://127.0.0.1:8080/v1";
            model = "qwen2.5-coder";
            timeout = 300;
          };
          bash.env-allowlist = [ "PATH" "LANG" "LC_*" ];
        }
      '';
      description = ''
        kli's configuration (kli.ini(5)), the lowest layer, under
        ~/.config/kli/config.ini and a project's .kli/config.ini (which may
        only narrow): sections `kli` (`capabilities`, a list, `[ ]` grants
        nothing; `profile`), `"profile NAME"` (`extends`, `capabilities`),
        `model` (`base-url`, `model`, `api-key-file`, `api-key-env`,
        `api-key-secret`, `timeout`, `idle-timeout`, `connect-timeout`,
        `retries`, `stream`) and `bash` (`env-allowlist`, `timeout`). An
        unknown section or key, a line over 198 bytes or a bad value is an
        evaluation error. Written to a store file: NixOS without `sandbox`
        links it as /etc/kli/config.ini; otherwise the `kli` on PATH passes
        it with `--system-config`. kli itself is not rebuilt. The older
        shape (`capabilities`, `profile`, `profiles.NAME` at the top) still
        works, with a warning. Prefer `apiKeyFile` for the key. No
        secrets: the store is readable by every local user.
      '';
    };

    apiKeyFile = mkOption {
      type = types.nullOr types.str;
      default = null;
      example = "~/.config/kli/api-key";
      description = ''
        The model's API key file (absolute or `~/`), read when kli starts,
        never copied into the store. With `sandbox` set, the wrapper passes
        it as a kjail secret (`kjail --secret model=FILE`) and kli's config
        says `api-key-secret = model`: kjail reads the file outside the
        jail, masks it inside and hands the key to kli on a descriptor,
        which kli closes before any tool runs, so no tool can read the key.
        Without `sandbox` it becomes `api-key-file = FILE`. Beside a key
        named in `settings.model` it is an evaluation error.
      '';
    };

    sandbox = mkOption {
      type = types.nullOr (types.submodule sandboxOptions);
      default = null;
      example = literalExpression ''
        {
          network = false;
          denyRead = [ "''${config.home.homeDirectory}/.aws" ];
          denyEnv = [ "AWS_SECRET_ACCESS_KEY" ];
        }
      '';
      description = ''
        null: install kli as it is. A set (even `{ }`): install a `kli`
        that runs the real one under kjail with a policy generated from
        this set and kept in the store. The wrapper passes it with
        `--config`, so neither the user's kjail config nor anything in the
        workspace or the environment can loosen it. The working directory
        is writable, the rest of the host read-only, kjail's built-in
        credential masks and secret scrub apply. The unwrapped kli stays
        reachable as `finalPackage.passthru.unsandboxed`. The build checks
        the policy as declared (`kjail --check-config`, nothing of the
        build machine looked at). With `settings.kli.capabilities` set, it
        also runs `kli --check-containment` against that declared policy
        (unless `checkContainment = false`): a grant it cannot honour
        (file/write under a path it keeps read-only, file/read of a path
        it masks) fails the build with the gate's lines; and the wrapper
        runs the same check inside the jail, against the real one, at
        every start, before kli.
      '';
    };

    finalPackage = mkOption {
      type = types.package;
      readOnly = true;
      default = kliLib.mkConfiguredKli {
        inherit pkgs lib;
        inherit (cfg) package settings sandbox apiKeyFile;
        # NixOS without a sandbox: the settings go to /etc/kli/config.ini
        etc = !isHome;
      };
      defaultText = literalExpression "the wrapped (or configured) kli";
      description = ''
        The kli put on PATH: the kjail wrapper when `sandbox` is set; else
        the package itself (NixOS, settings in /etc/kli/config.ini) or,
        with settings under home-manager, a wrapper passing them with
        `kli --system-config`.
      '';
    };
  };

  config = mkIf cfg.enable (mkMerge [
    {
      warnings =
        # an allowlist is its own network namespace: the generated
        # kjail.ini says network = false beside it
        lib.optional (cfg.sandbox != null && cfg.sandbox.allowedHosts != [ ] && cfg.sandbox.network)
          "programs.kli.sandbox.allowedHosts overrides network = true: the session reaches only the listed hosts, through kjail's proxy (set network = false to say so)"
        ++ map (s: "programs.kli.${s}: the older spelling of kli's settings still works; write the new one") legacy;
    }
    (if isHome then { home.packages = [ cfg.finalPackage ]; }
     else { environment.systemPackages = [ cfg.finalPackage ]; })
    # the system config the package reads (package.nix:
    # --with-kli-system-config=/etc/kli/config.ini)
    (optionalAttrs (!isHome) {
      environment.etc."kli/config.ini" = mkIf (cfg.sandbox == null && kliConfig != null) {
        source = kliConfig;
      };
    })
  ]);
}
