import type { Experimental_DidResolveQueryPlanCallback } from '@apollo/gateway';
import {
  type FragmentDefinitionNode,
  getNamedType,
  type GraphQLSchema,
  isObjectType,
  Kind,
  type OperationDefinitionNode,
  parse,
  print,
  type SelectionNode,
  type SelectionSetNode,
  type VariableDefinitionNode,
} from 'graphql';

type QueryPlan = Parameters<Experimental_DidResolveQueryPlanCallback>[0]['queryPlan'];

/** An operation whose plan is one fetch whose answer is, byte for byte, the answer the client asked for. */
export interface SingleFetch {
  serviceName: string;
  /** The subgraph operation the planner wrote, sent as it is. */
  query: string;
  operationName: string | undefined;
  /** The client's variables the subgraph operation uses (the planner's variableUsages). */
  variableUsages: readonly string[];
  /** The client operation's definitions, to coerce its variables as the gateway's executor does. */
  variableDefinitions: readonly VariableDefinitionNode[];
}

type Fragments = Record<string, FragmentDefinitionNode>;

/**
 * The single fetch of a query plan when its answer needs no result shaping, or undefined (the
 * planned path). Result shaping (computeResponse) can change a subgraph's answer only where the
 * subgraph operation differs from the client's selection: a field the planner added (`__typename`
 * on an abstract type, a key), one it answers at the gateway (introspection, a root `__typename`),
 * a merged or renamed field, a condition it evaluates itself (a Condition node), an entity fetch
 * (`_entities`, `requires`) or a rewrite. So the plan must be one Fetch without representations
 * or rewrites, and the subgraph operation's selections, printed, must equal the client's, both
 * with fragments on their own parent type flattened into it. Anything else is planned as before.
 */
export function singleFetchOf(queryPlan: QueryPlan, operation: OperationDefinitionNode, fragments: Fragments, schema: GraphQLSchema): SingleFetch | undefined {
  const node = queryPlan.node;
  if (node?.kind !== 'Fetch' || node.requires || node.inputRewrites?.length || node.outputRewrites?.length || node.contextRewrites?.length) return undefined;
  const document = parse(node.operation, { noLocation: true });
  const sent = document.definitions.find((definition): definition is OperationDefinitionNode => definition.kind === Kind.OPERATION_DEFINITION);
  if (!sent || sent.operation !== operation.operation) return undefined;
  const root = schema.getRootType(operation.operation);
  if (!root) return undefined;
  const sentFragments = Object.fromEntries(
    document.definitions.filter((definition): definition is FragmentDefinitionNode => definition.kind === Kind.FRAGMENT_DEFINITION).map((fragment) => [fragment.name.value, fragment]),
  );
  const asked = printFlattened(operation.selectionSet, root.name, fragments, schema);
  const fetched = printFlattened(sent.selectionSet, root.name, sentFragments, schema);
  if (asked === undefined || asked !== fetched) return undefined;
  return {
    serviceName: node.serviceName,
    query: node.operation,
    operationName: node.operationName,
    variableUsages: node.variableUsages ?? [],
    variableDefinitions: operation.variableDefinitions ?? [],
  };
}

/** The selection set printed with its fragments on the parent's own type spliced in; undefined for anything not understood. */
function printFlattened(selectionSet: SelectionSetNode, typeName: string, fragments: Fragments, schema: GraphQLSchema): string | undefined {
  const flattened = flatten(selectionSet, typeName, fragments, schema);
  return flattened ? print(flattened) : undefined;
}

function flatten(selectionSet: SelectionSetNode, typeName: string, fragments: Fragments, schema: GraphQLSchema): SelectionSetNode | undefined {
  const selections: SelectionNode[] = [];
  for (const selection of selectionSet.selections) {
    const flattened = flattenSelection(selection, typeName, fragments, schema);
    if (!flattened) return undefined;
    selections.push(...flattened);
  }
  return { kind: Kind.SELECTION_SET, selections };
}

function flattenSelection(selection: SelectionNode, typeName: string, fragments: Fragments, schema: GraphQLSchema): SelectionNode[] | undefined {
  if (selection.kind === Kind.FIELD) {
    if (!selection.selectionSet) return [{ ...selection, loc: undefined }];
    const parent = schema.getType(typeName);
    const field = isObjectType(parent) ? parent.getFields()[selection.name.value] : undefined;
    if (!field) return undefined;
    const children = flatten(selection.selectionSet, getNamedType(field.type).name, fragments, schema);
    return children ? [{ ...selection, loc: undefined, selectionSet: children }] : undefined;
  }
  const fragment = selection.kind === Kind.FRAGMENT_SPREAD ? fragments[selection.name.value] : selection;
  if (!fragment) return undefined;
  const condition = fragment.typeCondition?.name.value ?? typeName;
  // A fragment on another type (an interface's member) or under a directive is shaped by the gateway.
  if (condition !== typeName || selection.directives?.length || fragment.directives?.length) return undefined;
  return flatten(fragment.selectionSet, typeName, fragments, schema)?.selections.slice();
}
