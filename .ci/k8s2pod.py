#!/usr/bin/env python3
"""Kubernetes workloads -> one Pod that `podman kube play` can run (used by .ci/image).

Takes the pod templates of the named workloads (a Pod, Deployment, StatefulSet, DaemonSet,
ReplicaSet, Job or CronJob) out of the given manifests and puts them, verbatim, into one Pod:
the containers side by side (so they share the pod's network namespace and reach each other on
127.0.0.1), the volumes once each, the pod-level settings (securityContext, ...) unchanged, which
requires the templates to agree on them. Prints on stdout the ConfigMaps and
PersistentVolumeClaims the Pod uses (taken from the manifests) followed by the Pod.

What podman 4.3 (Debian 12) needs besides, with the pod on `--network none`:
- Ports without a hostPort are dropped: Kubernetes publishes nothing for them, podman 4.3 publishes
  them on the host (and refuses to without a bridge or slirp4netns network).
- --alias-services: every Service of the manifests that selects one of the workloads resolves to
  127.0.0.1 (its name, as cluster DNS would resolve it to the pod), provided its ports reach the
  containers' ports unchanged (named targetPorts are looked up; there is no port translation on
  the pod's loopback). --host-alias HOST=IP adds any other name.
- The names go into hostAliases, as a cluster would have them; podman 4.3 writes those only into the
  pod's infra container's /etc/hosts, not into the other containers', so --hosts-file PATH writes
  a hosts file with them and mounts it read-only at /etc/hosts in every container (a hostPath
  volume named ci-hosts).
- Podman 4.3 turns a Secret in the YAML into a podman secret it cannot read back (secretKeyRef
  then fails with "secret NAME is not valid JSON"), so Secrets are not printed: --secrets-dir DIR
  writes each Secret the Pod uses as DIR/NAME.json, the JSON map of key to base64 value that
  podman's secretKeyRef reads, for `podman secret create NAME DIR/NAME.json`.

  k8s2pod.py --pod NAME --workload Deployment/server [--workload CronJob/session ...]
             [--alias-services] [--host-alias HOST=IP ...] [--hosts-file PATH]
             [--env CONTAINER:KEY=VALUE ...] [--secrets-dir DIR] MANIFEST.yaml ...
"""

import argparse
import base64
import copy
import json
import os
import sys

import yaml

# Where each kind keeps its pod spec.
POD_SPEC_PATH = {
    "Pod": ("spec",),
    "Deployment": ("spec", "template", "spec"),
    "StatefulSet": ("spec", "template", "spec"),
    "DaemonSet": ("spec", "template", "spec"),
    "ReplicaSet": ("spec", "template", "spec"),
    "Job": ("spec", "template", "spec"),
    "CronJob": ("spec", "jobTemplate", "spec", "template", "spec"),
}


def fail(message):
    sys.exit(f"k8s2pod: {message}")


def load(paths):
    docs = []
    for path in paths:
        with open(path, encoding="utf-8") as f:
            docs += [d for d in yaml.safe_load_all(f) if d]
    return docs


def find(docs, kind, name):
    for d in docs:
        if d.get("kind") == kind and d.get("metadata", {}).get("name") == name:
            return d
    fail(f"no {kind} named {name} in the manifests")


def pod_template(doc):
    kind = doc["kind"]
    if kind not in POD_SPEC_PATH:
        fail(f"{kind} has no pod template")
    spec = doc
    for key in POD_SPEC_PATH[kind]:
        spec = spec[key]
    labels = {}
    if kind == "Pod":
        labels = doc.get("metadata", {}).get("labels", {})
    else:
        template = doc["spec"]["jobTemplate"]["spec"] if kind == "CronJob" else doc["spec"]
        labels = template["template"].get("metadata", {}).get("labels", {})
    return copy.deepcopy(spec), labels


def merge(specs):
    pod = specs[0]
    names = {c["name"] for c in pod["containers"]}
    volumes = {v["name"]: v for v in pod.get("volumes", [])}
    for spec in specs[1:]:
        for c in spec["containers"]:
            if c["name"] in names:
                fail(f"two containers named {c['name']}")
            names.add(c["name"])
            pod["containers"].append(c)
        for v in spec.get("volumes", []):
            if v["name"] in volumes:
                if volumes[v["name"]] != v:
                    fail(f"volume {v['name']} is defined differently in two templates")
                continue
            volumes[v["name"]] = v
            pod.setdefault("volumes", []).append(v)
        for key, value in spec.items():
            if key in ("containers", "volumes"):
                continue
            if key in pod and pod[key] != value:
                fail(f"the templates disagree on the pod's {key}: {pod[key]!r} vs {value!r}")
            pod[key] = value
    return pod


def service_aliases(docs, all_labels, pod):
    """The names of the Services that select a workload of the pod, their ports checked."""
    ports = {}
    for c in pod["containers"]:
        for port in c.get("ports", []):
            if "name" in port:
                ports[port["name"]] = port["containerPort"]
    names = []
    for d in docs:
        selector = d.get("spec", {}).get("selector") if d.get("kind") == "Service" else None
        if not selector or not any(selector.items() <= labels.items() for labels in all_labels):
            continue
        name = d["metadata"]["name"]
        for port in d["spec"].get("ports", []):
            target = port.get("targetPort", port["port"])
            if isinstance(target, str):
                if target not in ports:
                    fail(f"Service {name}: targetPort {target} names no container port of the pod")
                target = ports[target]
            if target != port["port"]:
                fail(f"Service {name}: port {port['port']} -> {target}: on the pod's loopback the "
                     "Service's port must be the container's")
        names.append(name)
    if not names:
        fail("--alias-services: no Service selects the workloads")
    return names


def set_env(pod, setting):
    try:
        container, assignment = setting.split(":", 1)
        key, value = assignment.split("=", 1)
    except ValueError:
        fail(f"--env {setting}: expected CONTAINER:KEY=VALUE")
    for c in pod["containers"]:
        if c["name"] == container:
            env = [e for e in c.get("env", []) if e["name"] != key]
            c["env"] = env + [{"name": key, "value": value}]
            return
    fail(f"--env {setting}: no container named {container}")


def secret_names(pod):
    names = set()
    for c in pod["containers"] + pod.get("initContainers", []):
        for e in c.get("env", []):
            ref = e.get("valueFrom", {}).get("secretKeyRef")
            if ref:
                names.add(ref["name"])
        for e in c.get("envFrom", []):
            if "secretRef" in e:
                names.add(e["secretRef"]["name"])
    for v in pod.get("volumes", []):
        if "secret" in v:
            names.add(v["secret"]["secretName"])
    return sorted(names)


def podman_secret(doc):
    """The Secret as podman's secretKeyRef reads it: {"key": "base64 of the value"}."""
    data = dict(doc.get("data") or {})
    for key, value in (doc.get("stringData") or {}).items():
        data[key] = base64.b64encode(str(value).encode()).decode()
    return data


def block_strings(dumper, value):
    """Multi-line strings (a ConfigMap's files) as YAML literal blocks, as they were written."""
    style = "|" if "\n" in value else None
    return dumper.represent_scalar("tag:yaml.org,2002:str", value, style=style)


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--pod", required=True, help="the Pod's name")
    p.add_argument("--workload", action="append", required=True, help="KIND/NAME, in order")
    p.add_argument("--alias-services", action="store_true", help="Services of the workloads -> 127.0.0.1")
    p.add_argument("--host-alias", action="append", default=[], help="HOST=IP (hostAliases)")
    p.add_argument("--hosts-file", help="write the aliases here, mount it at /etc/hosts")
    p.add_argument("--env", action="append", default=[], help="CONTAINER:KEY=VALUE, set or replace")
    p.add_argument("--secrets-dir", help="write the Secrets the Pod uses here as NAME.json")
    p.add_argument("manifests", nargs="+")
    args = p.parse_args()

    docs = load(args.manifests)
    specs, labels, all_labels = [], {}, []
    for workload in args.workload:
        kind, _, name = workload.partition("/")
        spec, template_labels = pod_template(find(docs, kind, name))
        specs.append(spec)
        all_labels.append(template_labels)
        labels = labels or template_labels
    pod = merge(specs)
    aliases = {}
    if args.alias_services:
        for name in service_aliases(docs, all_labels, pod):
            aliases.setdefault("127.0.0.1", []).append(name)
    for alias in args.host_alias:
        host, _, ip = alias.partition("=")
        if not ip:
            fail(f"--host-alias {alias}: expected HOST=IP")
        aliases.setdefault(ip, []).append(host)
    if aliases:
        pod.setdefault("hostAliases", [])
        pod["hostAliases"] += [{"ip": ip, "hostnames": hosts} for ip, hosts in aliases.items()]
    if args.hosts_file:
        with open(args.hosts_file, "w", encoding="utf-8") as f:
            f.write("127.0.0.1\tlocalhost\n::1\tlocalhost\n")
            f.writelines(f"{ip}\t{' '.join(hosts)}\n" for ip, hosts in aliases.items())
        pod.setdefault("volumes", []).append(
            {"name": "ci-hosts", "hostPath": {"path": os.path.abspath(args.hosts_file), "type": "File"}})
        for c in pod["containers"]:
            c.setdefault("volumeMounts", []).append(
                {"name": "ci-hosts", "mountPath": "/etc/hosts", "readOnly": True})
    for c in pod["containers"]:
        ports = [port for port in c.get("ports", []) if port.get("hostPort")]
        if ports:
            c["ports"] = ports
        else:
            c.pop("ports", None)
    for setting in args.env:
        set_env(pod, setting)

    out = []
    for v in pod.get("volumes", []):
        if "configMap" in v:
            out.append(find(docs, "ConfigMap", v["configMap"]["name"]))
        elif "persistentVolumeClaim" in v:
            out.append(find(docs, "PersistentVolumeClaim", v["persistentVolumeClaim"]["claimName"]))
    metadata = {"name": args.pod}
    if labels:
        metadata["labels"] = labels
    out.append({"apiVersion": "v1", "kind": "Pod", "metadata": metadata, "spec": pod})

    names = secret_names(pod)
    if names and not args.secrets_dir:
        fail(f"the pod uses the Secrets {', '.join(names)}: pass --secrets-dir")
    for name in names:
        path = os.path.join(args.secrets_dir, name + ".json")
        with open(path, "w", encoding="utf-8") as f:
            json.dump(podman_secret(find(docs, "Secret", name)), f)
        os.chmod(path, 0o600)
    yaml.SafeDumper.add_representer(str, block_strings)
    yaml.safe_dump_all(out, sys.stdout, sort_keys=False)


if __name__ == "__main__":
    main()
