// Command kube-admission reads the objects `helm template` prints (YAML documents on stdin) and
// checks what a cluster's admission would: each pod template (of a Deployment, Job, CronJob,
// StatefulSet, DaemonSet, or a bare Pod) against the Pod Security Standards' restricted profile,
// at its latest version, with the same library the API server's Pod Security admission runs
// (k8s.io/pod-security-admission); and each object of a custom resource whose CRD file is given
// (--crd, repeated) against that CRD's OpenAPI schema, as the API server validates it: a field
// the schema does not know, a wrong type, a missing required field or a value out of its enum
// fails. A kind with neither is left to deploy/kube-decode. It prints one line per object checked
// and every refusal, and exits non-zero when anything is refused.
//
// With --pods, it checks nothing and prints each pod template as a bare Pod instead (named after
// its owner), for an API server's own admission to judge (scripts/kube-apiserver.sh).
//
//	helm template rentals deploy/helm/rental-applications -f values-production.yaml |
//	  kube-admission --crd keda.sh_scaledobjects.yaml --crd monitoring.coreos.com_prometheusrules.yaml
package main

import (
	"bufio"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	utilyaml "k8s.io/apimachinery/pkg/util/yaml"
	"sigs.k8s.io/yaml"
)

type crdFiles []string

func (f *crdFiles) String() string     { return strings.Join(*f, ",") }
func (f *crdFiles) Set(v string) error { *f = append(*f, v); return nil }

func main() {
	var files crdFiles
	flag.Var(&files, "crd", "a CustomResourceDefinition YAML file whose objects are validated (repeatable)")
	pods := flag.Bool("pods", false, "print each pod template as a bare Pod, and check nothing")
	flag.Parse()
	schemas, err := loadSchemas(files)
	if err != nil {
		fail(err)
	}
	objects, err := readObjects(os.Stdin)
	if err != nil {
		fail(err)
	}
	if len(objects) == 0 {
		fail(errors.New("no object on stdin"))
	}
	if *pods {
		if err := printPods(os.Stdout, objects); err != nil {
			fail(err)
		}
		return
	}
	refused := 0
	for _, object := range objects {
		name := fmt.Sprintf("%s %s", object.GetKind(), object.GetName())
		problems, checked, err := check(object, schemas)
		if err != nil {
			fail(fmt.Errorf("%s: %w", name, err))
		}
		if checked == "" {
			continue
		}
		if len(problems) == 0 {
			fmt.Printf("allowed: %s (%s)\n", name, checked)
			continue
		}
		refused++
		for _, problem := range problems {
			fmt.Printf("refused: %s (%s): %s\n", name, checked, problem)
		}
	}
	if refused > 0 {
		fmt.Fprintf(os.Stderr, "kube-admission: %d object(s) refused\n", refused)
		os.Exit(1)
	}
}

// check returns what admission would refuse in object, and which check it ran ("" when none).
func check(object *unstructured.Unstructured, schemas map[string]*crdSchema) ([]string, checkName, error) {
	if schema, ok := schemas[groupKind(object)]; ok {
		problems, err := schema.validate(object)
		return problems, checkName("schema of " + schema.name), err
	}
	template, ok, err := podTemplate(object)
	if err != nil || !ok {
		return nil, "", err
	}
	return restrictedProblems(template), "pod security restricted", nil
}

type checkName string

func readObjects(in io.Reader) ([]*unstructured.Unstructured, error) {
	reader := utilyaml.NewYAMLReader(bufio.NewReader(in))
	var objects []*unstructured.Unstructured
	for {
		document, err := reader.Read()
		if errors.Is(err, io.EOF) {
			return objects, nil
		}
		if err != nil {
			return nil, err
		}
		var content map[string]interface{}
		if err := yaml.Unmarshal(document, &content); err != nil {
			return nil, fmt.Errorf("document %d: %w", len(objects)+1, err)
		}
		if len(content) == 0 {
			continue
		}
		objects = append(objects, &unstructured.Unstructured{Object: content})
	}
}

func groupKind(object *unstructured.Unstructured) string {
	return object.GroupVersionKind().GroupKind().String()
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, "kube-admission:", err)
	os.Exit(2)
}
