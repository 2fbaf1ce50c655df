import { describe, expect, it } from 'vitest';
import { assessVendorRisk, vendorRiskTier, type VendorScreening } from './vendor-risk.js';

const clean: VendorScreening = { sanctionsHit: false, sanctionsNearMatch: false, pepMatch: false, fatfBlacklist: false, fatfGreylist: false, vopBlocked: false };

describe('vendorRiskTier', () => {
  it.each([
    [100, 'LOW'],
    [80, 'LOW'],
    [79.99, 'MODERATE'],
    [60, 'MODERATE'],
    [59.99, 'ELEVATED'],
    [35, 'ELEVATED'],
    [34.99, 'HIGH'],
    [0, 'HIGH'],
  ])('%s is %s', (score, tier) => {
    expect(vendorRiskTier(score)).toBe(tier);
  });
});

describe('assessVendorRisk', () => {
  it('a clean vendor with the default ESG of 50: 100 x 0.65 + 50 x 0.35 = 82.5, LOW', () => {
    expect(assessVendorRisk(clean, 50)).toMatchObject({ verdict: 'APPROVED', complianceScore: 100, vendorRiskScore: 82.5, riskTier: 'LOW', signals: [] });
  });

  it('a sanctions hit, a black-listed jurisdiction or a blocked VoP blocks: compliance 0', () => {
    for (const cause of ['sanctionsHit', 'fatfBlacklist', 'vopBlocked'] as const) {
      expect(assessVendorRisk({ ...clean, [cause]: true }, 90)).toMatchObject({ verdict: 'BLOCKED', complianceScore: 0, vendorRiskScore: 31.5, riskTier: 'HIGH' });
    }
  });

  it('a PEP link flags and deducts 15 from 35; a grey-list jurisdiction 10 more', () => {
    expect(assessVendorRisk({ ...clean, pepMatch: true }, 70)).toMatchObject({ verdict: 'FLAGGED', complianceScore: 20, vendorRiskScore: 37.5, riskTier: 'ELEVATED', signals: ['PEP_MATCH'] });
    expect(assessVendorRisk({ ...clean, pepMatch: true, fatfGreylist: true }, 70)).toMatchObject({ complianceScore: 10, vendorRiskScore: 31, riskTier: 'HIGH' });
    expect(assessVendorRisk({ ...clean, sanctionsNearMatch: true, pepMatch: true, fatfGreylist: true }, 0)).toMatchObject({ complianceScore: 0, vendorRiskScore: 0 });
  });
});
