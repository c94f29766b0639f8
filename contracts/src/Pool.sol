// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

interface IERC20Minimal {
    function transfer(address to, uint256 amount) external returns (bool);
    function transferFrom(address from, address to, uint256 amount) external returns (bool);
}

/// @notice A constant-product (x*y=k) pool that looks like a Uniswap v3 pool to an indexer:
/// same Swap event (signed pool deltas, positive = paid into the pool), fee() in pips,
/// token0 < token1, and slot0().sqrtPriceX96 = sqrt(reserve1 / reserve0) * 2^96. It really
/// moves tokens, so the token ledger can be tested against real receipts. The fee is taken
/// from the input and stays in the reserves.
contract Pool {
    /// topic0 0xc42079f94a6350d7e6235f29174924f928cc2ac818eb64fed8004e115fbcca67
    event Swap(
        address indexed sender,
        address indexed recipient,
        int256 amount0,
        int256 amount1,
        uint160 sqrtPriceX96,
        uint128 liquidity,
        int24 tick
    );
    event LiquidityAdded(address indexed provider, uint256 amount0, uint256 amount1);

    address public immutable token0;
    address public immutable token1;
    /// In pips: 10000 = 1%.
    uint24 public immutable fee;

    uint256 public reserve0;
    uint256 public reserve1;

    constructor(address tokenA, address tokenB, uint24 fee_) {
        require(tokenA != tokenB && tokenA != address(0) && tokenB != address(0), "Pool: bad tokens");
        require(fee_ < 1_000_000, "Pool: bad fee");
        (token0, token1) = tokenA < tokenB ? (tokenA, tokenB) : (tokenB, tokenA);
        fee = fee_;
    }

    /// Uniswap v3 layout. tick is left at 0 (this pool has no ticks); observation fields are
    /// fixed and the pool is always unlocked.
    function slot0()
        external
        view
        returns (
            uint160 sqrtPriceX96,
            int24 tick,
            uint16 observationIndex,
            uint16 observationCardinality,
            uint16 observationCardinalityNext,
            uint8 feeProtocol,
            bool unlocked
        )
    {
        return (_sqrtPriceX96(), 0, 0, 1, 1, 0, true);
    }

    /// sqrt(reserve0 * reserve1), the constant-product analogue of v3 liquidity.
    function liquidity() public view returns (uint128) {
        uint256 r0 = reserve0;
        uint256 r1 = reserve1;
        if (r0 == 0 || r1 == 0) return 0;
        uint256 l = r1 <= type(uint256).max / r0 ? _sqrt(r0 * r1) : _sqrt(r0) * _sqrt(r1);
        return l > type(uint128).max ? type(uint128).max : uint128(l);
    }

    function getReserves() external view returns (uint256, uint256) {
        return (reserve0, reserve1);
    }

    /// Caller must have approved both tokens to the pool.
    function addLiquidity(uint256 amount0, uint256 amount1) external {
        _pull(token0, amount0);
        _pull(token1, amount1);
        reserve0 += amount0;
        reserve1 += amount1;
        emit LiquidityAdded(msg.sender, amount0, amount1);
    }

    /// Exact-input swap: pulls amountIn of the input token from the caller, pays the output
    /// to recipient. zeroForOne sells token0 for token1.
    function swap(address recipient, bool zeroForOne, uint256 amountIn, uint256 minOut)
        external
        returns (int256 amount0, int256 amount1)
    {
        require(amountIn > 0, "Pool: zero input");
        require(amountIn <= uint256(type(int256).max), "Pool: input too large");
        (uint256 reserveIn, uint256 reserveOut) = zeroForOne ? (reserve0, reserve1) : (reserve1, reserve0);
        require(reserveIn > 0 && reserveOut > 0, "Pool: no liquidity");

        uint256 inAfterFee = amountIn - (amountIn * fee) / 1_000_000;
        uint256 amountOut = (reserveOut * inAfterFee) / (reserveIn + inAfterFee);
        require(amountOut > 0, "Pool: zero output");
        require(amountOut >= minOut, "Pool: slippage");

        if (zeroForOne) {
            reserve0 = reserveIn + amountIn;
            reserve1 = reserveOut - amountOut;
            (amount0, amount1) = (int256(amountIn), -int256(amountOut));
        } else {
            reserve1 = reserveIn + amountIn;
            reserve0 = reserveOut - amountOut;
            (amount0, amount1) = (-int256(amountOut), int256(amountIn));
        }

        _pull(zeroForOne ? token0 : token1, amountIn);
        require(IERC20Minimal(zeroForOne ? token1 : token0).transfer(recipient, amountOut), "Pool: transfer failed");

        emit Swap(msg.sender, recipient, amount0, amount1, _sqrtPriceX96(), liquidity(), 0);
    }

    function _pull(address token, uint256 amount) private {
        if (amount == 0) return;
        require(IERC20Minimal(token).transferFrom(msg.sender, address(this), amount), "Pool: transferFrom failed");
    }

    /// sqrt(reserve1 * 2^192 / reserve0), pre-scaled down by 2^(2k) when reserve1 << 192 would
    /// overflow and scaled back up by 2^k after the root.
    function _sqrtPriceX96() private view returns (uint160) {
        uint256 r0 = reserve0;
        uint256 r1 = reserve1;
        if (r0 == 0 || r1 == 0) return 0;
        uint256 k;
        while ((r1 >> (64 + 2 * k)) != 0) k++;
        uint256 p = _sqrt((r1 << (192 - 2 * k)) / r0) << k;
        return p > type(uint160).max ? type(uint160).max : uint160(p);
    }

    /// Babylonian integer square root (floor).
    function _sqrt(uint256 x) private pure returns (uint256 z) {
        if (x == 0) return 0;
        z = x;
        uint256 y = x / 2 + 1;
        while (y < z) {
            z = y;
            y = (x / y + y) / 2;
        }
    }
}
