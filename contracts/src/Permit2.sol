// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {ECDSA} from "./ECDSA.sol";

interface IERC1271 {
    function isValidSignature(bytes32 hash, bytes calldata signature) external view returns (bytes4);
}

/// @notice Permit2's SignatureTransfer half, ABI- and EIP-712-compatible with Uniswap's
/// Permit2 so off-the-shelf x402 clients can sign against it unchanged.
/// @dev The devnet copies this runtime code to the canonical address
/// 0x000000000022D473030F116dDEE9F6B43aC78BA3 with anvil_setCode, which skips the
/// constructor. So there is no constructor, no immutable and no initialised storage: the
/// domain separator is derived from block.chainid and address(this) on every call, and the
/// only storage (the nonce bitmap) is meant to start empty.
contract Permit2 {
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

    // Error names and arguments follow Uniswap's Permit2 so revert data decodes the same way.
    error SignatureExpired(uint256 signatureDeadline);
    error InvalidAmount(uint256 maxAmount);
    error InvalidNonce();
    error InvalidSignatureLength();
    error InvalidSignature();
    error InvalidSigner();
    error InvalidContractSignature();

    event UnorderedNonceInvalidation(address indexed owner, uint256 word, uint256 mask);

    bytes32 private constant _TYPE_HASH = keccak256("EIP712Domain(string name,uint256 chainId,address verifyingContract)");
    bytes32 private constant _HASHED_NAME = keccak256("Permit2");
    bytes32 public constant _TOKEN_PERMISSIONS_TYPEHASH = keccak256("TokenPermissions(address token,uint256 amount)");
    bytes32 public constant _PERMIT_TRANSFER_FROM_TYPEHASH = keccak256(
        "PermitTransferFrom(TokenPermissions permitted,address spender,uint256 nonce,uint256 deadline)TokenPermissions(address token,uint256 amount)"
    );
    string public constant _PERMIT_TRANSFER_FROM_WITNESS_TYPEHASH_STUB =
        "PermitWitnessTransferFrom(TokenPermissions permitted,address spender,uint256 nonce,uint256 deadline,";

    /// owner => word position (nonce >> 8) => bitmap of used nonces (bit = nonce & 0xff).
    mapping(address => mapping(uint256 => uint256)) public nonceBitmap;

    /// Computed at call time (no cached copy) so the code works at whatever address it sits.
    function DOMAIN_SEPARATOR() public view returns (bytes32) {
        return keccak256(abi.encode(_TYPE_HASH, _HASHED_NAME, block.chainid, address(this)));
    }

    /// Plain permit: the spender is msg.sender, no witness.
    function permitTransferFrom(
        PermitTransferFrom calldata permit,
        SignatureTransferDetails calldata transferDetails,
        address owner,
        bytes calldata signature
    ) external {
        bytes32 dataHash = keccak256(
            abi.encode(
                _PERMIT_TRANSFER_FROM_TYPEHASH,
                keccak256(abi.encode(_TOKEN_PERMISSIONS_TYPEHASH, permit.permitted)),
                msg.sender,
                permit.nonce,
                permit.deadline
            )
        );
        _permitTransferFrom(permit, transferDetails, owner, dataHash, signature);
    }

    /// Witness permit (selector 0x137c29fe): the signer also commits to extra data, here the
    /// x402 proxy's Witness(to, validAfter), so the spender cannot redirect the funds.
    function permitWitnessTransferFrom(
        PermitTransferFrom calldata permit,
        SignatureTransferDetails calldata transferDetails,
        address owner,
        bytes32 witness,
        string calldata witnessTypeString,
        bytes calldata signature
    ) external {
        bytes32 typeHash = keccak256(abi.encodePacked(_PERMIT_TRANSFER_FROM_WITNESS_TYPEHASH_STUB, witnessTypeString));
        bytes32 dataHash = keccak256(
            abi.encode(
                typeHash,
                keccak256(abi.encode(_TOKEN_PERMISSIONS_TYPEHASH, permit.permitted)),
                msg.sender,
                permit.nonce,
                permit.deadline,
                witness
            )
        );
        _permitTransferFrom(permit, transferDetails, owner, dataHash, signature);
    }

    /// Lets an owner burn nonces in bulk (e.g. to cancel a signed but unsettled payment).
    function invalidateUnorderedNonces(uint256 wordPos, uint256 mask) external {
        nonceBitmap[msg.sender][wordPos] |= mask;
        emit UnorderedNonceInvalidation(msg.sender, wordPos, mask);
    }

    function _permitTransferFrom(
        PermitTransferFrom calldata permit,
        SignatureTransferDetails calldata transferDetails,
        address owner,
        bytes32 dataHash,
        bytes calldata signature
    ) private {
        uint256 requestedAmount = transferDetails.requestedAmount;
        if (block.timestamp > permit.deadline) revert SignatureExpired(permit.deadline);
        if (requestedAmount > permit.permitted.amount) revert InvalidAmount(permit.permitted.amount);

        _useUnorderedNonce(owner, permit.nonce);
        _verify(signature, keccak256(abi.encodePacked("\x19\x01", DOMAIN_SEPARATOR(), dataHash)), owner);
        _safeTransferFrom(permit.permitted.token, owner, transferDetails.to, requestedAmount);
    }

    /// Flips the nonce's bit; if it was already set the nonce was used (or invalidated).
    function _useUnorderedNonce(address from, uint256 nonce) private {
        uint256 wordPos = nonce >> 8;
        uint256 bit = 1 << (nonce & 0xff);
        uint256 flipped = nonceBitmap[from][wordPos] ^= bit;
        if (flipped & bit == 0) revert InvalidNonce();
    }

    /// ERC-1271 when the owner is a contract (smart wallet), ECDSA otherwise.
    function _verify(bytes calldata signature, bytes32 hash, address claimedSigner) private view {
        if (claimedSigner.code.length > 0) {
            bytes4 magic = IERC1271(claimedSigner).isValidSignature(hash, signature);
            if (magic != IERC1271.isValidSignature.selector) revert InvalidContractSignature();
            return;
        }
        if (signature.length != 65 && signature.length != 64) revert InvalidSignatureLength();
        address signer = ECDSA.recover(hash, signature);
        if (signer == address(0)) revert InvalidSignature();
        if (signer != claimedSigner) revert InvalidSigner();
    }

    /// transferFrom that accepts tokens returning nothing, and refuses codeless "tokens"
    /// (which would otherwise "succeed" without moving anything).
    function _safeTransferFrom(address token, address from, address to, uint256 amount) private {
        require(token.code.length > 0, "TRANSFER_FROM_FAILED");
        (bool ok, bytes memory ret) = token.call(abi.encodeWithSelector(0x23b872dd, from, to, amount));
        require(ok && (ret.length == 0 || abi.decode(ret, (bool))), "TRANSFER_FROM_FAILED");
    }
}
