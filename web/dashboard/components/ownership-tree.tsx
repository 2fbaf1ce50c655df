import { hierarchy, tree } from 'd3-hierarchy';

export interface OwnershipNodeView {
  lei: string;
  name: string;
  role: string;
  jurisdiction: string | null;
  leiStatus: string;
  sanctions: { hit: boolean };
}

interface TreeDatum {
  node: OwnershipNodeView;
  children: TreeDatum[];
}

const ROLE_ORDER = ['ULTIMATE_PARENT', 'INTERMEDIATE_PARENT', 'DIRECT_PARENT', 'SUBJECT'];
const WIDTH = 320;
const ROW = 74;

/** The chain from the ultimate parent down to the subject, whatever order the API lists it in. */
const topDown = (chain: readonly OwnershipNodeView[]) => [...chain].sort((a, b) => ROLE_ORDER.indexOf(a.role) - ROLE_ORDER.indexOf(b.role));

function nested(chain: readonly OwnershipNodeView[]): TreeDatum | undefined {
  let child: TreeDatum | undefined;
  for (const node of topDown(chain).reverse()) child = { node, children: child ? [child] : [] };
  return child;
}

/** The ownership chain laid out by d3-hierarchy's tree and drawn as SVG; the list below it is its text. */
export function OwnershipTree({ chain }: { chain: readonly OwnershipNodeView[] }) {
  const root = nested(chain);
  if (!root) return <p>No ownership chain on file.</p>;
  const layout = tree<TreeDatum>().size([WIDTH, Math.max(1, chain.length - 1) * ROW])(hierarchy(root));
  const nodes = layout.descendants();
  const height = (chain.length - 1) * ROW + 60;
  const summary = `Ownership chain of ${chain.length} ${chain.length === 1 ? 'entity' : 'entities'}, ultimate parent at the top; ${chain.filter((entry) => entry.sanctions.hit).length} with a sanctions hit.`;
  return (
    <figure class="ownership-tree">
      <svg viewBox={`-90 -20 ${WIDTH + 180} ${height}`} role="img" aria-label={summary}>
        {layout.links().map((link) => (
          <line key={`${link.source.data.node.lei}-${link.target.data.node.lei}`} class="tree-link" x1={link.source.x} y1={link.source.y} x2={link.target.x} y2={link.target.y} />
        ))}
        {nodes.map((point) => (
          <g key={point.data.node.lei} class={`tree-node${point.data.node.sanctions.hit ? ' sanctioned' : ''}`} transform={`translate(${point.x},${point.y})`}>
            <circle r="7" />
            <text y="-12" text-anchor="middle">
              {point.data.node.name}
            </text>
            <text y="22" text-anchor="middle" class="tree-role">
              {point.data.node.role.replaceAll('_', ' ').toLowerCase()} · {point.data.node.lei}
            </text>
          </g>
        ))}
      </svg>
      <figcaption>{summary}</figcaption>
      <ol class="chain-list">
        {topDown(chain).map((entry) => (
          <li key={entry.lei}>
            <strong>{entry.name}</strong> ({entry.role.replaceAll('_', ' ').toLowerCase()}), LEI {entry.lei}, {entry.leiStatus}
            {entry.jurisdiction ? `, ${entry.jurisdiction}` : ''}
            {entry.sanctions.hit ? <span class="badge danger"> sanctions hit</span> : null}
          </li>
        ))}
      </ol>
    </figure>
  );
}
