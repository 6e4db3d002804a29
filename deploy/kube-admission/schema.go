package main

import (
	"fmt"
	"os"

	"k8s.io/apiextensions-apiserver/pkg/apis/apiextensions"
	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	structuralschema "k8s.io/apiextensions-apiserver/pkg/apiserver/schema"
	"k8s.io/apiextensions-apiserver/pkg/apiserver/schema/pruning"
	"k8s.io/apiextensions-apiserver/pkg/apiserver/validation"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"sigs.k8s.io/yaml"
)

// crdSchema is one CustomResourceDefinition's schema for each version it serves.
type crdSchema struct {
	name     string
	versions map[string]versionSchema
}

type versionSchema struct {
	validator  validation.SchemaValidator
	structural *structuralschema.Structural
}

// loadSchemas reads each CRD file, keyed by the group and kind it defines.
func loadSchemas(files []string) (map[string]*crdSchema, error) {
	schemas := map[string]*crdSchema{}
	for _, file := range files {
		content, err := os.ReadFile(file)
		if err != nil {
			return nil, err
		}
		var crd apiextensionsv1.CustomResourceDefinition
		if err := yaml.UnmarshalStrict(content, &crd); err != nil {
			return nil, fmt.Errorf("%s: %w", file, err)
		}
		schema := &crdSchema{name: crd.Name, versions: map[string]versionSchema{}}
		for _, version := range crd.Spec.Versions {
			if !version.Served || version.Schema == nil || version.Schema.OpenAPIV3Schema == nil {
				continue
			}
			var internal apiextensions.JSONSchemaProps
			if err := apiextensionsv1.Convert_v1_JSONSchemaProps_To_apiextensions_JSONSchemaProps(
				version.Schema.OpenAPIV3Schema, &internal, nil); err != nil {
				return nil, fmt.Errorf("%s %s: %w", file, version.Name, err)
			}
			validator, _, err := validation.NewSchemaValidator(&internal)
			if err != nil {
				return nil, fmt.Errorf("%s %s: %w", file, version.Name, err)
			}
			structural, err := structuralschema.NewStructural(&internal)
			if err != nil {
				return nil, fmt.Errorf("%s %s: %w", file, version.Name, err)
			}
			schema.versions[version.Name] = versionSchema{validator: validator, structural: structural}
		}
		schemas[crd.Spec.Group+"/"+crd.Spec.Names.Kind] = schema
		schemas[crd.Spec.Names.Kind+"."+crd.Spec.Group] = schema
	}
	return schemas, nil
}

// validate is what the API server refuses in object under its version's schema, unknown fields
// included (as `kubectl apply --validate=strict` has them refused rather than dropped).
func (s *crdSchema) validate(object *unstructured.Unstructured) ([]string, error) {
	version := object.GroupVersionKind().Version
	schema, ok := s.versions[version]
	if !ok {
		return []string{fmt.Sprintf("version %q is not served by %s", version, s.name)}, nil
	}
	var problems []string
	for _, err := range validation.ValidateCustomResource(nil, object.UnstructuredContent(), schema.validator) {
		problems = append(problems, err.Error())
	}
	copied := runtime.DeepCopyJSON(object.UnstructuredContent())
	unknown := pruning.PruneWithOptions(copied, schema.structural, true,
		structuralschema.UnknownFieldPathOptions{TrackUnknownFieldPaths: true})
	for _, path := range unknown {
		problems = append(problems, fmt.Sprintf("unknown field %q", path))
	}
	return problems, nil
}
