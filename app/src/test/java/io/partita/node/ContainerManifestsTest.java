package io.partita.node;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;
import org.yaml.snakeyaml.constructor.SafeConstructor;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * The essentials of docker/kubernetes.yaml and docker/compose.yaml, read as YAML. No Kubernetes API server or schema
 * validator is at hand where the suite runs (kubectl's dry run needs a server), so this checks what the README says
 * of them: the StatefulSet's ordinal identity behind a headless service, DNS discovery through that service, the
 * anti-affinity, the PodDisruptionBudget, the NetworkPolicy on the member port, the probes, the Secret references,
 * and that every PARTITA_ variable they set is a setting the node has. docker/test.sh runs the compose file for real.
 */
class ContainerManifestsTest {

    private static final Path DOCKER = locate("docker");
    private static Map<String, Map<String, Object>> kubernetes;
    private static Map<String, Object> compose;
    private static Set<String> settings;

    @BeforeAll
    static void read() throws IOException {
        kubernetes = new LinkedHashMap<>();
        for (Object document : yaml().loadAll(Files.readString(DOCKER.resolve("kubernetes.yaml")))) {
            Map<String, Object> resource = map(document);
            String key = resource.get("kind") + "/" + map(resource.get("metadata")).get("name");
            assertTrue(kubernetes.put(key, resource) == null, "twice in the manifest: " + key);
            assertNotNull(resource.get("apiVersion"), key + " has no apiVersion");
        }
        compose = map(yaml().load(Files.readString(DOCKER.resolve("compose.yaml"))));
        try (InputStream in = ContainerManifestsTest.class.getResourceAsStream("/application.yml")) {
            settings = new HashSet<>();
            flatten("", map(yaml().load(in)), settings);
        }
    }

    @Test
    void theManifestHoldsEachResourceWithTheApiVersionItIsServedUnder() {
        Map<String, String> expected = new LinkedHashMap<>();
        expected.put("Service/partita-members", "v1");
        expected.put("Service/partita", "v1");
        expected.put("StatefulSet/partita", "apps/v1");
        expected.put("PodDisruptionBudget/partita", "policy/v1");
        expected.put("Secret/partita-credentials", "v1");
        expected.put("NetworkPolicy/partita-members-only", "networking.k8s.io/v1");
        assertEquals(expected.keySet(), kubernetes.keySet());
        expected.forEach((key, apiVersion) -> assertEquals(apiVersion, kubernetes.get(key).get("apiVersion"), key));
    }

    @Test
    void theStatefulSetGivesEachPodAStableNameAndAddressThroughTheHeadlessService() {
        Map<String, Object> spec = spec("StatefulSet/partita");
        Map<String, Object> headless = spec("Service/partita-members");
        assertEquals("partita-members", spec.get("serviceName"), "pods partita-0..2 get partita-N.partita-members");
        assertEquals("None", headless.get("clusterIP"), "the governing service is headless");
        assertEquals(true, headless.get("publishNotReadyAddresses"),
                "members find each other before they are ready (readiness needs the cluster)");
        assertEquals(3, spec.get("replicas"));
        assertEquals("Parallel", spec.get("podManagementPolicy"),
                "OrderedReady would wait for partita-0 to be ready, which needs a majority of 3 members");
        Map<String, Object> labels = map(map(template().get("metadata")).get("labels"));
        assertEquals(labels, map(map(spec.get("selector")).get("matchLabels")));
        assertEquals(labels, headless.get("selector"));
        assertEquals(labels, spec("Service/partita").get("selector"));
        assertEquals(Set.of(5701), ports(headless, "port"));
        assertEquals(Set.of(5701), ports(headless, "targetPort"));
        assertEquals(Set.of(8080), ports(spec("Service/partita"), "targetPort"), "clients reach HTTP only");
    }

    @Test
    void membersFindEachOtherByLookingUpTheHeadlessServiceInTheirOwnNamespace() {
        Map<String, String> env = env();
        assertEquals("kubernetes", env.get("PARTITA_DISCOVERY"));
        assertEquals("partita-members.$(POD_NAMESPACE).svc.cluster.local", env.get("PARTITA_KUBERNETES_SERVICE_DNS"));
        assertEquals("$(POD_IP)", env.get("PARTITA_NETWORK_HOST"), "the member binds to its pod's address");
        assertEquals("http://$(POD_IP):8080", env.get("PARTITA_HTTP_URL"));
        assertEquals("metadata.namespace", fieldRef("POD_NAMESPACE"));
        assertEquals("status.podIP", fieldRef("POD_IP"));
        assertEquals(String.valueOf(spec("StatefulSet/partita").get("replicas")), env.get("PARTITA_CLUSTER_SIZE"),
                "split-brain protection is a majority of the cluster size: keep it equal to the replicas");
        assertEquals("3", env.get("PARTITA_CP_MEMBERS"));
    }

    @Test
    void anEnvironmentVariableIsReferencedOnlyAfterItIsDefined() {
        // Kubernetes expands $(NAME) only for variables defined earlier in the list; a later one stays literal.
        Set<String> defined = new HashSet<>();
        Pattern reference = Pattern.compile("\\$\\(([A-Za-z_][A-Za-z0-9_]*)\\)");
        for (Map<String, Object> variable : list(container().get("env"))) {
            Object value = variable.get("value");
            if (value != null) {
                Matcher m = reference.matcher(value.toString());
                while (m.find()) {
                    assertTrue(defined.contains(m.group(1)), variable.get("name") + " uses $(" + m.group(1)
                            + ") before it is defined");
                }
            }
            defined.add((String) variable.get("name"));
        }
    }

    @Test
    void podsAreSpreadOverKubernetesNodesAndPartitionCopiesFollowThem() {
        Map<String, Object> antiAffinity = map(map(map(template().get("spec")).get("affinity")).get("podAntiAffinity"));
        List<Map<String, Object>> preferred = list(antiAffinity.get("preferredDuringSchedulingIgnoredDuringExecution"));
        assertEquals(1, preferred.size());
        Map<String, Object> term = map(preferred.get(0).get("podAffinityTerm"));
        assertEquals("kubernetes.io/hostname", term.get("topologyKey"));
        assertEquals(map(map(template().get("metadata")).get("labels")),
                map(map(term.get("labelSelector")).get("matchLabels")));
        assertEquals("zone", env().get("PARTITA_PARTITION_GROUP_TYPE"));
        assertEquals("spec.nodeName", fieldRef("PARTITA_PARTITION_GROUP_ZONE"));
    }

    @Test
    void aVoluntaryDisruptionTakesAtMostOneMemberAtATime() {
        Map<String, Object> pdb = spec("PodDisruptionBudget/partita");
        assertEquals(1, pdb.get("maxUnavailable"));
        assertFalse(pdb.containsKey("minAvailable"), "one of maxUnavailable and minAvailable");
        assertEquals(map(map(template().get("metadata")).get("labels")), map(map(pdb.get("selector"))
                .get("matchLabels")));
    }

    @Test
    void onlyPartitaPodsReachTheMemberPortWhileHttpStaysOpenToTheNamespace() {
        Map<String, Object> policy = spec("NetworkPolicy/partita-members-only");
        Object labels = map(map(template().get("metadata")).get("labels"));
        assertEquals(labels, map(policy.get("podSelector")).get("matchLabels"));
        assertEquals(List.of("Ingress"), policy.get("policyTypes"));
        List<Map<String, Object>> rules = list(policy.get("ingress"));
        assertEquals(2, rules.size(), "one rule for 5701, one for 8080, nothing else admitted");
        boolean memberRule = false;
        boolean httpRule = false;
        for (Map<String, Object> rule : rules) {
            List<Map<String, Object>> ports = list(rule.get("ports"));
            assertEquals(1, ports.size());
            assertEquals("TCP", ports.get(0).get("protocol"));
            Object port = ports.get(0).get("port");
            if (Objects.equals(port, 5701)) {
                List<Map<String, Object>> from = list(rule.get("from"));
                assertEquals(1, from.size());
                assertEquals(Set.of("podSelector"), from.get(0).keySet(), "no namespace or IP block: Partita pods only");
                assertEquals(labels, map(from.get(0).get("podSelector")).get("matchLabels"));
                memberRule = true;
            } else if (Objects.equals(port, 8080)) {
                assertFalse(rule.containsKey("from"), "HTTP from the namespace's clients");
                httpRule = true;
            } else {
                fail("a rule for port " + port);
            }
        }
        assertTrue(memberRule && httpRule);
    }

    @Test
    void probesAskReadinessAndLivenessOnTheHttpPortAndTheGracePeriodCoversAHandOver() {
        Map<String, Object> container = container();
        Set<String> portNames = new HashSet<>();
        for (Map<String, Object> port : list(container.get("ports"))) {
            portNames.add((String) port.get("name"));
        }
        assertEquals(Set.of("http", "member"), portNames);
        assertEquals(Map.of("path", "/health/readiness", "port", "http"),
                map(container.get("readinessProbe")).get("httpGet"));
        assertEquals(Map.of("path", "/health/liveness", "port", "http"),
                map(container.get("livenessProbe")).get("httpGet"));
        assertEquals(Map.of("path", "/health/liveness", "port", "http"),
                map(container.get("startupProbe")).get("httpGet"));
        Map<String, Object> podSpec = map(template().get("spec"));
        assertTrue(((Number) podSpec.get("terminationGracePeriodSeconds")).intValue() >= 90,
                "a leaving member hands its partitions over before it is killed");
        Map<String, Object> resources = map(container.get("resources"));
        assertNotNull(map(resources.get("limits")).get("memory"),
                "the image sizes its heap from the memory limit (MaxRAMPercentage)");
    }

    @Test
    void thePodRunsAsTheImagesNonRootUserWithoutPrivileges() {
        Map<String, Object> pod = map(map(template().get("spec")).get("securityContext"));
        assertEquals(true, pod.get("runAsNonRoot"));
        assertEquals(10001, pod.get("runAsUser"), "the uid docker/Dockerfile creates");
        Map<String, Object> container = map(container().get("securityContext"));
        assertEquals(false, container.get("allowPrivilegeEscalation"));
        assertEquals(List.of("ALL"), map(container.get("capabilities")).get("drop"));
    }

    @Test
    void credentialsComeFromTheSecretThatHoldsEachReferencedKey() {
        Map<String, Object> secret = kubernetes.get("Secret/partita-credentials");
        Set<String> keys = map(secret.get("stringData")).keySet();
        Map<String, String> references = new LinkedHashMap<>();
        for (Map<String, Object> variable : list(container().get("env"))) {
            Object from = variable.get("valueFrom");
            if (from != null && map(from).containsKey("secretKeyRef")) {
                Map<String, Object> ref = map(map(from).get("secretKeyRef"));
                assertEquals("partita-credentials", ref.get("name"));
                assertTrue(keys.contains((String) ref.get("key")), "the Secret has no key " + ref.get("key"));
                references.put((String) variable.get("name"), (String) ref.get("key"));
            }
        }
        assertEquals(Map.of("PARTITA_SECURITY_ADMIN_PASSWORD", "admin-password",
                "PARTITA_SECURITY_CLIENT_PASSWORD", "client-password"), references);
        assertFalse(env().containsKey("PARTITA_SECURITY_ADMIN_PASSWORD"), "no password as a plain value");
    }

    @Test
    void composePublishesHttpOnlyAndRunsWithCredentialsARestartPolicyAndAGracefulStop() {
        Map<String, Object> services = map(compose.get("services"));
        assertEquals(Set.of("node1", "node2", "node3"), services.keySet());
        int n = 0;
        for (Map.Entry<String, Object> service : services.entrySet()) {
            n++;
            Map<String, Object> node = map(service.getValue());
            assertEquals(List.of("127.0.0.1:808" + n + ":8080"), node.get("ports"),
                    service.getKey() + ": HTTP on loopback only, the member port on the compose network only");
            assertEquals("on-failure", node.get("restart"), "status 70 (StuckMigrations) and crashes start again");
            assertEquals("90s", node.get("stop_grace_period"));
            assertEquals(service.getKey(), node.get("hostname"));
            Map<String, Object> environment = map(node.get("environment"));
            assertEquals("tcp", environment.get("PARTITA_DISCOVERY"));
            assertEquals("node1,node2,node3", environment.get("PARTITA_MEMBERS"));
            assertEquals("3", environment.get("PARTITA_CLUSTER_SIZE"));
            assertEquals("http://localhost:808" + n, environment.get("PARTITA_HTTP_URL"));
            assertEquals("${PARTITA_ADMIN_PASSWORD:-change-me-admin}",
                    environment.get("PARTITA_SECURITY_ADMIN_PASSWORD"));
            assertEquals("${PARTITA_CLIENT_PASSWORD:-change-me-client}",
                    environment.get("PARTITA_SECURITY_CLIENT_PASSWORD"));
            Map<String, Object> healthcheck = map(node.get("healthcheck"));
            assertEquals(List.of("CMD", "curl", "-fsS", "http://localhost:8080/health/readiness"),
                    healthcheck.get("test"));
        }
    }

    @Test
    void everyPartitaVariableTheManifestsSetIsASettingOfTheNode() {
        List<String> names = new ArrayList<>();
        for (Map<String, Object> variable : list(container().get("env"))) {
            names.add((String) variable.get("name"));
        }
        for (Object node : map(compose.get("services")).values()) {
            names.addAll(map(map(node).get("environment")).keySet());
        }
        for (String name : names) {
            if (name.startsWith("PARTITA_")) {
                assertTrue(settings.contains(name), name + " is no key of application.yml");
            }
        }
    }

    // --- reading ---

    private static Map<String, Object> template() {
        return map(spec("StatefulSet/partita").get("template"));
    }

    private static Map<String, Object> container() {
        List<Map<String, Object>> containers = list(map(template().get("spec")).get("containers"));
        assertEquals(1, containers.size());
        return containers.get(0);
    }

    /** Plain values of the container's environment (valueFrom ones are left out). */
    private static Map<String, String> env() {
        Map<String, String> env = new LinkedHashMap<>();
        for (Map<String, Object> variable : list(container().get("env"))) {
            if (variable.containsKey("value")) {
                env.put((String) variable.get("name"), String.valueOf(variable.get("value")));
            }
        }
        return env;
    }

    private static String fieldRef(String name) {
        for (Map<String, Object> variable : list(container().get("env"))) {
            if (name.equals(variable.get("name"))) {
                return (String) map(map(map(variable.get("valueFrom")).get("fieldRef"))).get("fieldPath");
            }
        }
        throw new AssertionError("no variable " + name);
    }

    private static Map<String, Object> spec(String key) {
        Map<String, Object> resource = kubernetes.get(key);
        assertNotNull(resource, "no " + key + " in the manifest");
        return map(resource.get("spec"));
    }

    private static Set<Object> ports(Map<String, Object> serviceSpec, String field) {
        Set<Object> ports = new HashSet<>();
        for (Map<String, Object> port : list(serviceSpec.get("ports"))) {
            ports.add(port.get(field));
        }
        return ports;
    }

    /** application.yml's keys as the environment variables that set them: partita.cp.members = PARTITA_CP_MEMBERS. */
    private static void flatten(String prefix, Map<String, Object> node, Set<String> into) {
        node.forEach((key, value) -> {
            String path = prefix.isEmpty() ? key : prefix + "." + key;
            into.add(path.replace('.', '_').replace('-', '_').toUpperCase());
            if (value instanceof Map<?, ?>) {
                flatten(path, map(value), into);
            }
        });
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> map(Object value) {
        assertTrue(value instanceof Map<?, ?>, "a mapping expected, found " + value);
        return (Map<String, Object>) value;
    }

    @SuppressWarnings("unchecked")
    private static List<Map<String, Object>> list(Object value) {
        assertTrue(value instanceof List<?>, "a list expected, found " + value);
        return (List<Map<String, Object>>) value;
    }

    private static Yaml yaml() {
        return new Yaml(new SafeConstructor(new LoaderOptions()));
    }

    /** The repository's directory of that name, from the module's directory (Maven) or the repository root. */
    private static Path locate(String name) {
        for (Path dir = Path.of("").toAbsolutePath(); dir != null; dir = dir.getParent()) {
            if (Files.isRegularFile(dir.resolve(name).resolve("kubernetes.yaml"))) {
                return dir.resolve(name);
            }
        }
        throw new IllegalStateException("no " + name + "/kubernetes.yaml above " + Path.of("").toAbsolutePath());
    }
}
