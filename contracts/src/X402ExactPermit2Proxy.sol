// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

/// @notice The slice of Permit2 the proxy calls.
interface ISignatureTransfer {
    struct TokenPermissions {
        address token;
        uint256 amount;
    }

    struct PermitTransferFrom {
        TokenPermissions permitted;
        uint256 nonce;
        uint256 deadline;
    }

    struct SignatureTransferDetails {
        address to;
        uint256 requestedAmount;
    }

    function permitWitnessTransferFrom(
        PermitTransferFrom calldata permit,
        SignatureTransferDetails calldata transferDetails,
        address owner,
        bytes32 witness,
        string calldata witnessTypeString,
        bytes calldata signature
    ) external;
}

/// @notice x402 "exact" settlement through Permit2 (the spender named in the payer's
/// signature). The signed witness binds the recipient, so whoever submits the transaction
/// (the facilitator) cannot redirect the funds; the full permitted amount always moves.
/// @dev Lives at the canonical 0x402085c248EeA27D92E8b30b2C58ed07f9E20001 on the devnet via
/// anvil_setCode, so nothing is set up by a constructor: Permit2's address is a constant.
contract X402ExactPermit2Proxy {
    struct Witness {
        address to;
        uint256 validAfter;
    }

    ISignatureTransfer public constant PERMIT2 = ISignatureTransfer(0x000000000022D473030F116dDEE9F6B43aC78BA3);

    /// Referenced types follow the primary one in alphabetical order, as EIP-712 requires.
    string public constant WITNESS_TYPE_STRING =
        "Witness witness)TokenPermissions(address token,uint256 amount)Witness(address to,uint256 validAfter)";
    bytes32 public constant WITNESS_TYPEHASH = keccak256("Witness(address to,uint256 validAfter)");

    /// Same (argument-less) event as the upstream x402 proxy, so indexers written for it work.
    event Settled();

    error InvalidAmount();
    error InvalidOwner();
    error InvalidDestination();
    error PaymentTooEarly();
    error Reentrancy();

    /// Reentrancy lock whose idle value is 0, the state of fresh storage, so it works at an
    /// address filled with anvil_setCode (no constructor ran). Reset after each call.
    uint256 private _entered;

    modifier nonReentrant() {
        if (_entered != 0) revert Reentrancy();
        _entered = 1;
        _;
        _entered = 0;
    }

    /// selector 0x13cd3b53 = settle(((address,uint256),uint256,uint256),address,(address,uint256),bytes)
    function settle(
        ISignatureTransfer.PermitTransferFrom calldata permit,
        address owner,
        Witness calldata witness,
        bytes calldata signature
    ) external nonReentrant {
        uint256 amount = permit.permitted.amount;
        // A zero amount would burn the payer's nonce for nothing.
        if (amount == 0) revert InvalidAmount();
        if (owner == address(0)) revert InvalidOwner();
        if (witness.to == address(0)) revert InvalidDestination();
        // The upper bound of the window is Permit2's deadline.
        if (block.timestamp < witness.validAfter) revert PaymentTooEarly();

        bytes32 witnessHash = keccak256(abi.encode(WITNESS_TYPEHASH, witness.to, witness.validAfter));
        PERMIT2.permitWitnessTransferFrom(
            permit,
            ISignatureTransfer.SignatureTransferDetails({to: witness.to, requestedAmount: amount}),
            owner,
            witnessHash,
            WITNESS_TYPE_STRING,
            signature
        );
        emit Settled();
    }
}
