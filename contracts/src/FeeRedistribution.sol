// SPDX-License-Identifier: MIT
pragma solidity 0.8.30;

import {IERC20} from "@openzeppelin/contracts/token/ERC20/IERC20.sol";
import {SafeERC20} from "@openzeppelin/contracts/token/ERC20/utils/SafeERC20.sol";
import {Ownable} from "@openzeppelin/contracts/access/Ownable.sol";
import {ReentrancyGuard} from "@openzeppelin/contracts/utils/ReentrancyGuard.sol";

/**
 * Where the settlement router's fees go (the router's feeRecipient), and how they are split: the
 * owner names the recipients and their shares in basis points (summing to 10,000); anyone may
 * call distribute(token), which pays the contract's whole balance of the token out by share.
 * Each share is rounded down; the last recipient takes what rounding leaves, so nothing stays.
 */
contract FeeRedistribution is Ownable, ReentrancyGuard {
    using SafeERC20 for IERC20;

    uint256 public constant TOTAL_SHARES = 10_000;

    struct Recipient {
        address account;
        uint256 shareBps;
    }

    Recipient[] private _recipients;

    event RecipientsSet(uint256 count);
    event Distributed(address indexed token, uint256 amount);
    event Paid(address indexed token, address indexed recipient, uint256 amount);

    error NoRecipients();
    error SharesNotWhole(uint256 total);
    error ZeroRecipient();
    error NothingToDistribute();

    constructor(address owner_, Recipient[] memory recipients_) Ownable(owner_) {
        _setRecipients(recipients_);
    }

    function setRecipients(Recipient[] calldata recipients_) external onlyOwner {
        _setRecipients(recipients_);
    }

    function recipients() external view returns (Recipient[] memory) {
        return _recipients;
    }

    /// Pays the contract's whole balance of `token` to the recipients by share.
    function distribute(IERC20 token) external nonReentrant returns (uint256 amount) {
        amount = token.balanceOf(address(this));
        if (amount == 0) revert NothingToDistribute();
        uint256 paid;
        uint256 last = _recipients.length - 1;
        for (uint256 i = 0; i < last; i++) {
            uint256 share = amount * _recipients[i].shareBps / TOTAL_SHARES;
            paid += share;
            _pay(token, _recipients[i].account, share);
        }
        _pay(token, _recipients[last].account, amount - paid);
        emit Distributed(address(token), amount);
    }

    function _pay(IERC20 token, address recipient, uint256 amount) private {
        if (amount == 0) return;
        token.safeTransfer(recipient, amount);
        emit Paid(address(token), recipient, amount);
    }

    function _setRecipients(Recipient[] memory recipients_) private {
        if (recipients_.length == 0) revert NoRecipients();
        delete _recipients;
        uint256 total;
        for (uint256 i = 0; i < recipients_.length; i++) {
            if (recipients_[i].account == address(0)) revert ZeroRecipient();
            total += recipients_[i].shareBps;
            _recipients.push(recipients_[i]);
        }
        if (total != TOTAL_SHARES) revert SharesNotWhole(total);
        emit RecipientsSet(recipients_.length);
    }
}
