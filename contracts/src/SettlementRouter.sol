// SPDX-License-Identifier: MIT
pragma solidity 0.8.30;

import {IERC20} from "@openzeppelin/contracts/token/ERC20/IERC20.sol";
import {SafeERC20} from "@openzeppelin/contracts/token/ERC20/utils/SafeERC20.sol";
import {Ownable} from "@openzeppelin/contracts/access/Ownable.sol";

/**
 * The settlement router: the fee model of the off-chain quote (docs/fee-model.md), in bps, with
 * its parameters set by the owner, and a settle that moves the token, takes the fee and records
 * the quoteId it settles (once).
 *
 * Rates are carried in units of 1e-7 bps so every rate of the model is an integer: an ESG score
 * has at most 6 decimals, and (100 - score) / 2 then at most 7. Each component's amount is
 * amount x rate / 10,000 rounded half-even to one token base unit (6 decimals, one USDC base
 * unit), exactly as the off-chain quote rounds each USD component; the total is their sum.
 */
contract SettlementRouter is Ownable {
    using SafeERC20 for IERC20;

    uint256 public constant RATE_SCALE = 1e7; // rate units per bp
    uint256 public constant BPS_PER_UNIT = 10_000;
    uint256 public constant SCORE_SCALE = 1e6; // ESG score units per point
    uint256 public constant MAX_SCORE = 100 * SCORE_SCALE;

    struct VolumeTier {
        uint256 minMonthlyVolume; // token base units
        uint256 coreDiscountPct; // whole percent
    }

    /// One settlement of settleBatch: settle()'s arguments after the token.
    struct Order {
        address payee;
        uint256 amount;
        bool hasFx;
        uint256 esgScore;
        uint256 monthlyVolume;
        string quoteId;
    }

    struct FeeBreakdown {
        uint256 coreRate; // 1e-7 bps
        uint256 fxRate;
        uint256 esgRate;
        uint256 licenseRate;
        uint256 core; // token base units
        uint256 fx;
        uint256 esg;
        uint256 license;
        uint256 total;
        uint256 net;
    }

    uint256 public coreBps;
    uint256 public fxBps;
    uint256 public licenseBps;
    VolumeTier[] private _volumeTiers;
    address public feeRecipient;

    mapping(bytes32 quoteIdHash => bool settled) public settledQuotes;

    event FeeParametersSet(uint256 coreBps, uint256 fxBps, uint256 licenseBps, uint256 tiers);
    event Settled(
        bytes32 indexed quoteIdHash,
        address indexed payer,
        address indexed payee,
        address token,
        uint256 amount,
        uint256 fee,
        string quoteId
    );

    error ScoreOutOfRange();
    error TiersNotAscending();
    error QuoteAlreadySettled();
    error EmptyQuoteId();
    error EmptyBatch();

    constructor(address owner_, address feeRecipient_) Ownable(owner_) {
        feeRecipient = feeRecipient_;
    }

    function setFeeParameters(uint256 coreBps_, uint256 fxBps_, uint256 licenseBps_, VolumeTier[] calldata tiers)
        external
        onlyOwner
    {
        delete _volumeTiers;
        for (uint256 i = 0; i < tiers.length; i++) {
            if (i > 0 && tiers[i].minMonthlyVolume <= tiers[i - 1].minMonthlyVolume) revert TiersNotAscending();
            _volumeTiers.push(tiers[i]);
        }
        coreBps = coreBps_;
        fxBps = fxBps_;
        licenseBps = licenseBps_;
        emit FeeParametersSet(coreBps_, fxBps_, licenseBps_, tiers.length);
    }

    function setFeeRecipient(address feeRecipient_) external onlyOwner {
        feeRecipient = feeRecipient_;
    }

    function volumeTiers() external view returns (VolumeTier[] memory) {
        return _volumeTiers;
    }

    /// @notice The fees of a transfer of `amount` base units, as the off-chain quote computes them.
    function previewFees(uint256 amount, bool hasFx, uint256 esgScore, uint256 monthlyVolume)
        public
        view
        returns (FeeBreakdown memory fees)
    {
        if (esgScore > MAX_SCORE) revert ScoreOutOfRange();
        fees.coreRate = coreBps * RATE_SCALE * (100 - _coreDiscountPct(monthlyVolume)) / 100;
        fees.fxRate = hasFx ? fxBps * RATE_SCALE : 0;
        fees.esgRate = (MAX_SCORE - esgScore) * RATE_SCALE / (2 * SCORE_SCALE);
        fees.licenseRate = licenseBps * RATE_SCALE;
        fees.core = _atRate(amount, fees.coreRate);
        fees.fx = _atRate(amount, fees.fxRate);
        fees.esg = _atRate(amount, fees.esgRate);
        fees.license = _atRate(amount, fees.licenseRate);
        fees.total = fees.core + fees.fx + fees.esg + fees.license;
        fees.net = amount - fees.total;
    }

    /**
     * @notice Pays `amount` of `token` from the caller: the net to `payee`, the fee to the fee
     * recipient, and records `quoteId` so it settles once.
     */
    function settle(
        IERC20 token,
        address payee,
        uint256 amount,
        bool hasFx,
        uint256 esgScore,
        uint256 monthlyVolume,
        string calldata quoteId
    ) external returns (FeeBreakdown memory fees) {
        fees = _settle(token, payee, amount, hasFx, esgScore, monthlyVolume, quoteId);
        if (fees.total > 0) token.safeTransferFrom(msg.sender, feeRecipient, fees.total);
    }

    /**
     * @notice Settles every order as settle() does, in one transaction: all of them or none (one
     * refused order reverts the batch). Each order pays its net and emits its Settled event with
     * its own fee; the fees go to the fee recipient in one transfer.
     */
    function settleBatch(IERC20 token, Order[] calldata orders) external returns (uint256 totalFees) {
        if (orders.length == 0) revert EmptyBatch();
        for (uint256 i = 0; i < orders.length; i++) {
            Order calldata order = orders[i];
            totalFees += _settle(token, order.payee, order.amount, order.hasFx, order.esgScore, order.monthlyVolume, order.quoteId).total;
        }
        if (totalFees > 0) token.safeTransferFrom(msg.sender, feeRecipient, totalFees);
    }

    /// Records the quoteId, pays the net to the payee and emits Settled; the caller moves the fee.
    function _settle(
        IERC20 token,
        address payee,
        uint256 amount,
        bool hasFx,
        uint256 esgScore,
        uint256 monthlyVolume,
        string calldata quoteId
    ) private returns (FeeBreakdown memory fees) {
        if (bytes(quoteId).length == 0) revert EmptyQuoteId();
        bytes32 quoteIdHash = keccak256(bytes(quoteId));
        if (settledQuotes[quoteIdHash]) revert QuoteAlreadySettled();
        settledQuotes[quoteIdHash] = true;
        fees = previewFees(amount, hasFx, esgScore, monthlyVolume);
        token.safeTransferFrom(msg.sender, payee, fees.net);
        emit Settled(quoteIdHash, msg.sender, payee, address(token), amount, fees.total, quoteId);
    }

    function _coreDiscountPct(uint256 monthlyVolume) private view returns (uint256 discount) {
        for (uint256 i = 0; i < _volumeTiers.length; i++) {
            if (monthlyVolume >= _volumeTiers[i].minMonthlyVolume) discount = _volumeTiers[i].coreDiscountPct;
        }
    }

    /// amount x rate / (10,000 x RATE_SCALE), rounded half to even.
    function _atRate(uint256 amount, uint256 rate) private pure returns (uint256) {
        uint256 numerator = amount * rate;
        uint256 denominator = BPS_PER_UNIT * RATE_SCALE;
        uint256 quotient = numerator / denominator;
        uint256 twiceRemainder = 2 * (numerator % denominator);
        if (twiceRemainder > denominator || (twiceRemainder == denominator && quotient % 2 == 1)) quotient += 1;
        return quotient;
    }
}
