// Validates every resource of a Kubernetes manifest against the API schemas that the npm package kubernetes-models
// carries (types, required fields, enums, formats), by apiVersion and kind; a resource of an unknown kind fails.
// The schemas allow unknown fields, so a misspelt optional key passes here: ContainerManifestsTest asserts the keys
// that matter by name. Run through docker/validate-kubernetes.sh, which installs the packages.
import fs from 'node:fs';
import { parseAllDocuments } from 'yaml';

const file = process.argv[2];
let bad = 0;
for (const parsed of parseAllDocuments(fs.readFileSync(file, 'utf8'))) {
  if (parsed.errors.length) {
    console.log(`INVALID YAML in ${file}: ${parsed.errors.map(e => e.message).join('; ')}`);
    bad++;
    continue;
  }
  const doc = parsed.toJS();
  if (doc === null) continue;
  const name = `${doc.apiVersion} ${doc.kind} ${doc.metadata?.name}`;
  let Model;
  try {
    Model = (await import(`kubernetes-models/${doc.apiVersion}`))[doc.kind];
  } catch (e) {
    Model = undefined;
  }
  if (!Model) {
    console.log(`INVALID: ${name}: no such apiVersion and kind`);
    bad++;
    continue;
  }
  try {
    new Model(doc).validate();
    console.log(`valid: ${name}`);
  } catch (e) {
    console.log(`INVALID: ${name}: ${e.message}`);
    bad++;
  }
}
process.exit(bad ? 1 : 0);
