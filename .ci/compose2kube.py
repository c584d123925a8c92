#!/usr/bin/env python3
"""A Compose file -> one Pod that `podman kube play` can run (used by .ci/image).

Compose puts its services on a bridge network where each service's name resolves to it. Here
every service becomes a container of one Pod instead (run with `podman kube play --network none`,
they share the pod's loopback), and the service names resolve to 127.0.0.1 (hostAliases, and a
hosts file mounted at /etc/hosts: podman 4.3 gives a pod's hostAliases to its infra container
only). Prints the Pod on stdout.

As `docker compose` does: ${VAR}, ${VAR:-default}, ${VAR-default}, ${VAR:?error}, ${VAR?error},
$VAR and $$ are replaced from the environment (and an .env file beside the Compose file); a
service's `command` overrides the image's CMD (the Pod's args), `entrypoint` its ENTRYPOINT; a
named volume `NAME` is the podman volume PROJECT_NAME (a persistentVolumeClaim of that name, which
podman creates on first use and keeps, as Compose does; no PersistentVolumeClaim is printed: podman
4.3 refuses one whose volume exists already); services under `profiles` are left out
unless a --profile names one of them; --service S takes S and what it depends on (as
`docker compose run S` does), whatever their profiles. Dropped: `ports` (everything is on the
pod's loopback), `depends_on` (the clients retry), `build`, `restart`. Any other key is refused,
so that a Compose file this script does not understand fails the check instead of being run
differently.

  compose2kube.py --pod NAME --hosts-file PATH [--service S ...] [--profile P ...]
                  [--env SERVICE:KEY=VALUE ...] compose.yaml
"""

import argparse
import os
import re
import shlex
import sys

import yaml

SERVICE_KEYS = {
    "image", "build", "command", "entrypoint", "environment", "volumes", "ports", "expose",
    "depends_on", "profiles", "stop_grace_period", "restart", "working_dir", "user", "read_only",
    "pull_policy",
}
TOP_KEYS = {"name", "services", "volumes", "version"}
PULL_POLICY = {"always": "Always", "never": "Never", "missing": "IfNotPresent",
               "if_not_present": "IfNotPresent"}
VARIABLE = re.compile(
    r"\$(?:(?P<escaped>\$)|\{(?P<braced>[A-Za-z_][A-Za-z0-9_]*)(?:(?P<op>:?[-?])(?P<arg>[^}]*))?\}"
    r"|(?P<named>[A-Za-z_][A-Za-z0-9_]*))")


def fail(message):
    sys.exit(f"compose2kube: {message}")


def read_env_file(path):
    env = {}
    if os.path.exists(path):
        with open(path, encoding="utf-8") as f:
            for line in f:
                line = line.strip()
                if line and not line.startswith("#") and "=" in line:
                    key, value = line.split("=", 1)
                    env[key.strip()] = value.strip().strip("'\"")
    return env


def interpolate(value, env):
    if isinstance(value, dict):
        return {k: interpolate(v, env) for k, v in value.items()}
    if isinstance(value, list):
        return [interpolate(v, env) for v in value]
    if not isinstance(value, str):
        return value

    def replace(m):
        if m.group("escaped"):
            return "$"
        name = m.group("braced") or m.group("named")
        op, arg = m.group("op"), m.group("arg")
        current = env.get(name)
        unset = current is None or (op is not None and op.startswith(":") and current == "")
        if op and op.endswith("-"):
            return interpolate(arg, env) if unset else current
        if op and op.endswith("?"):
            if unset:
                fail(f"${{{name}}}: {arg or 'required'}")
            return current
        return current or ""

    return VARIABLE.sub(replace, value)


def depends(service):
    deps = service.get("depends_on", [])
    return list(deps) if isinstance(deps, (list, dict)) else []


def selected(services, wanted, profiles):
    if wanted:
        chosen, todo = [], list(wanted)
        while todo:
            name = todo.pop(0)
            if name not in services:
                fail(f"no service {name}")
            if name not in chosen:
                chosen.append(name)
                todo += depends(services[name])
        return [name for name in services if name in chosen]
    return [name for name, s in services.items()
            if not s.get("profiles") or set(s["profiles"]) & set(profiles)]


def seconds(duration):
    total = 0.0
    for number, unit in re.findall(r"([0-9.]+)(ms|us|h|m|s)?", str(duration)):
        total += float(number) * {"h": 3600, "m": 60, "s": 1, "ms": 0.001, "us": 1e-6}[unit or "s"]
    return int(total + 0.999)


def environment(value):
    if isinstance(value, dict):
        items = value.items()
    else:
        items = [(e.split("=", 1) + [None])[:2] for e in value or []]
    env = []
    for key, val in items:
        if val is None:
            val = os.environ.get(key)
            if val is None:
                continue
        env.append({"name": key, "value": str(val)})
    return env


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--pod", required=True, help="the Pod's name")
    p.add_argument("--hosts-file", required=True, help="write the service names here, mount it at /etc/hosts")
    p.add_argument("--service", action="append", default=[], help="this service and its depends_on")
    p.add_argument("--profile", action="append", default=[], help="enable a Compose profile")
    p.add_argument("--env", action="append", default=[], help="SERVICE:KEY=VALUE, set or replace")
    p.add_argument("compose")
    args = p.parse_args()

    base = os.path.dirname(os.path.abspath(args.compose))
    env = {**read_env_file(os.path.join(base, ".env")), **os.environ}
    with open(args.compose, encoding="utf-8") as f:
        doc = yaml.safe_load(f)
    unknown = {k for k in doc if k not in TOP_KEYS and not k.startswith("x-")}
    if unknown:
        fail(f"top-level keys this script does not handle: {', '.join(sorted(unknown))}")
    project = doc.get("name") or os.path.basename(base)
    services = interpolate(doc["services"], env)
    declared = doc.get("volumes") or {}

    containers, volumes, grace = [], {}, 0
    names = selected(services, args.service, args.profile)
    for name in names:
        s = services[name]
        unknown = {k for k in s if k not in SERVICE_KEYS}
        if unknown:
            fail(f"service {name}: keys this script does not handle: {', '.join(sorted(unknown))}")
        if "image" not in s:
            fail(f"service {name} has no image")
        c = {"name": name, "image": s["image"]}
        if "pull_policy" in s:
            c["imagePullPolicy"] = PULL_POLICY[s["pull_policy"]]
        for key, field in (("entrypoint", "command"), ("command", "args")):
            if key in s:
                value = s[key]
                c[field] = shlex.split(value) if isinstance(value, str) else [str(v) for v in value]
        if "working_dir" in s:
            c["workingDir"] = s["working_dir"]
        env_list = environment(s.get("environment"))
        if env_list:
            c["env"] = env_list
        security = {}
        if "user" in s:
            user, _, group = str(s["user"]).partition(":")
            if not user.isdigit() or (group and not group.isdigit()):
                fail(f"service {name}: user {s['user']} is not numeric")
            security["runAsUser"] = int(user)
            if group:
                security["runAsGroup"] = int(group)
        if s.get("read_only"):
            security["readOnlyRootFilesystem"] = True
        if security:
            c["securityContext"] = security
        mounts = []
        for v in s.get("volumes", []):
            if isinstance(v, str):
                parts = v.split(":")
                source, target = (parts[0], parts[1]) if len(parts) > 1 else (None, parts[0])
                read_only = len(parts) > 2 and "ro" in parts[2].split(",")
                kind = "bind" if source and source[0] in "./~" else "volume"
            else:
                source, target = v.get("source"), v["target"]
                read_only, kind = bool(v.get("read_only")), v.get("type", "volume")
            if source is None or kind not in ("volume", "bind"):
                fail(f"service {name}: volume {v!r} is not a named volume or a bind mount")
            if kind == "volume":
                if source not in declared:
                    fail(f"service {name}: volume {source} is not declared under volumes")
                claim = (declared[source] or {}).get("name") or f"{project}_{source}"
                volume = {"name": source, "persistentVolumeClaim": {"claimName": claim}}
            else:
                path = os.path.normpath(os.path.join(base, os.path.expanduser(source)))
                volume = {"name": "bind-" + re.sub(r"[^a-z0-9]+", "-", path.lower()).strip("-"),
                          "hostPath": {"path": path}}
            volumes.setdefault(volume["name"], volume)
            mount = {"name": volume["name"], "mountPath": target}
            if read_only:
                mount["readOnly"] = True
            mounts.append(mount)
        if mounts:
            c["volumeMounts"] = mounts
        if "stop_grace_period" in s:
            grace = max(grace, seconds(s["stop_grace_period"]))
        containers.append(c)

    for setting in args.env:
        try:
            service, assignment = setting.split(":", 1)
            key, value = assignment.split("=", 1)
        except ValueError:
            fail(f"--env {setting}: expected SERVICE:KEY=VALUE")
        matches = [c for c in containers if c["name"] == service]
        if not matches:
            fail(f"--env {setting}: service {service} is not in the pod")
        c = matches[0]
        c["env"] = [e for e in c.get("env", []) if e["name"] != key] + [{"name": key, "value": value}]

    with open(args.hosts_file, "w", encoding="utf-8") as f:
        f.write(f"127.0.0.1\tlocalhost {' '.join(names)}\n::1\tlocalhost\n")
    volumes["ci-hosts"] = {"name": "ci-hosts",
                           "hostPath": {"path": os.path.abspath(args.hosts_file), "type": "File"}}
    for c in containers:
        c.setdefault("volumeMounts", []).append({"name": "ci-hosts", "mountPath": "/etc/hosts", "readOnly": True})

    spec = {"restartPolicy": "Never",
            "hostAliases": [{"ip": "127.0.0.1", "hostnames": names}],
            "containers": containers,
            "volumes": list(volumes.values())}
    if grace:
        spec["terminationGracePeriodSeconds"] = grace
    pod = {"apiVersion": "v1", "kind": "Pod",
           "metadata": {"name": args.pod, "labels": {"com.docker.compose.project": project}},
           "spec": spec}
    yaml.safe_dump(pod, sys.stdout, sort_keys=False)


if __name__ == "__main__":
    main()
