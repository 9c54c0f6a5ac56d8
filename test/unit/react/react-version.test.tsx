/** Which React this project runs on, and that every library shares it (see the helper). */
import { describe } from 'vitest';
import { describeReactVersion } from '../../helpers/react-version';

describe('React version of the unit project', describeReactVersion);
