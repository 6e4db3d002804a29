// Command kube-decode reads the objects `helm template` prints (YAML documents on stdin) and
// decodes each one strictly into its Kubernetes API type, or KEDA's for KEDA's objects and the
// Prometheus Operator's for a PrometheusRule: a field
// that is misspelled, misplaced or of the wrong type, a duplicate field, or a kind it does not know
// fails, naming the object. It prints one line per object decoded.
//
//	helm template rentals deploy/helm/rental-applications -f values-development.yaml | kube-decode
package main

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"

	kedav1alpha1 "github.com/kedacore/keda/v2/apis/keda/v1alpha1"
	monitoringv1 "github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring/v1"
	appsv1 "k8s.io/api/apps/v1"
	autoscalingv2 "k8s.io/api/autoscaling/v2"
	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	networkingv1 "k8s.io/api/networking/v1"
	policyv1 "k8s.io/api/policy/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/serializer"
	utilyaml "k8s.io/apimachinery/pkg/util/yaml"
	"sigs.k8s.io/yaml"
)

// The API groups the chart may render; any other kind is refused.
var addToScheme = []func(*runtime.Scheme) error{
	appsv1.AddToScheme,
	autoscalingv2.AddToScheme,
	batchv1.AddToScheme,
	corev1.AddToScheme,
	networkingv1.AddToScheme,
	policyv1.AddToScheme,
	kedav1alpha1.AddToScheme,
	monitoringv1.AddToScheme,
}

func main() {
	count, err := decodeAll(os.Stdin, os.Stdout)
	if err != nil {
		fmt.Fprintln(os.Stderr, "kube-decode:", err)
		os.Exit(1)
	}
	if count == 0 {
		fmt.Fprintln(os.Stderr, "kube-decode: no object on stdin")
		os.Exit(1)
	}
}

func decodeAll(in io.Reader, out io.Writer) (int, error) {
	scheme := runtime.NewScheme()
	for _, add := range addToScheme {
		if err := add(scheme); err != nil {
			return 0, err
		}
	}
	// Strict: unknown and duplicate fields are errors, not warnings.
	decoder := serializer.NewCodecFactory(scheme, serializer.EnableStrict).UniversalDeserializer()
	reader := utilyaml.NewYAMLReader(bufio.NewReader(in))
	count := 0
	for {
		document, err := reader.Read()
		if errors.Is(err, io.EOF) {
			return count, nil
		}
		if err != nil {
			return count, err
		}
		if isEmpty(document) {
			continue
		}
		json, err := yaml.YAMLToJSONStrict(document)
		if err != nil {
			return count, fmt.Errorf("document %d: %w", count+1, err)
		}
		object, kind, err := decoder.Decode(json, nil, nil)
		if err != nil {
			return count, fmt.Errorf("document %d (%s): %w", count+1, describe(document), err)
		}
		count++
		name := ""
		if named, ok := object.(interface{ GetName() string }); ok {
			name = named.GetName()
		}
		fmt.Fprintf(out, "%s/%s %s\n", kind.GroupVersion(), kind.Kind, name)
	}
}

// isEmpty says whether a document holds nothing but comments and blank lines.
func isEmpty(document []byte) bool {
	for _, line := range bytes.Split(document, []byte("\n")) {
		line = bytes.TrimSpace(line)
		if len(line) > 0 && line[0] != '#' && !bytes.Equal(line, []byte("---")) {
			return false
		}
	}
	return true
}

// describe names a document by its first lines (its `# Source:` and kind), for an error.
func describe(document []byte) string {
	lines := bytes.SplitN(bytes.TrimSpace(document), []byte("\n"), 3)
	return string(bytes.Join(lines[:min(2, len(lines))], []byte(" ")))
}
